import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { formatRequest, Log } from '../../src/log';
import { proxySecrets } from '../../src/api/network/secrets';

function fakeChannel(lines: string[]): vscode.LogOutputChannel {
  const write = (line: string): void => void lines.push(line);
  return { debug: write, info: write, warn: write, error: write } as unknown as vscode.LogOutputChannel;
}

describe('proxy credentials in the log (unit)', () => {
  it('collects passwords, the Proxy-Authorization value and its Basic form', () => {
    const secrets = proxySecrets({
      proxy: 'http://ada:pa%24%24word@proxy:3128',
      proxyAuthorization: 'Basic QWxhZGRpbjpvcGVu',
      env: { HTTPS_PROXY: 'bob:hunter22@proxy:3128', http_proxy: 'http://carl:broken pass@[bad' },
    });
    for (const expected of [
      'pa%24%24word',
      'pa$$word',
      'Basic QWxhZGRpbjpvcGVu',
      'QWxhZGRpbjpvcGVu',
      'hunter22',
      'broken pass',
      Buffer.from('ada:pa$$word').toString('base64'),
    ]) {
      assert.ok(secrets.includes(expected), `${expected} in ${JSON.stringify(secrets)}`);
    }
    assert.deepEqual(proxySecrets({ proxy: 'http://proxy:3128' }), []);
  });

  it('masks them with the key, and keeps masking a credential once seen', () => {
    const lines: string[] = [];
    const log = new Log(fakeChannel(lines));
    log.setSecret('sk_live_key_123');
    log.setSecrets('proxy', proxySecrets({ proxy: 'http://ada:hunter22@proxy:3128' }));
    log.scoped('http').warn('key sk_live_key_123, password hunter22');
    log.setSecrets('proxy', []);
    log.info('hunter22 sk_live_key_123');
    assert.deepEqual(lines, ['[http] key ***, password ***', '*** ***']);
  });

  it('says which route a request took', () => {
    const base = { method: 'GET', path: '/api/v1/me', status: 200, durationMs: 12, attempt: 1 };
    assert.equal(
      formatRequest({ ...base, route: 'proxy 10.0.0.1:3128' }),
      'GET /api/v1/me → 200 in 12 ms (via proxy 10.0.0.1:3128)',
    );
    assert.equal(
      formatRequest({ ...base, route: 'direct', bytes: 1024 }),
      'GET /api/v1/me → 200 in 12 ms (direct, 1.0 KB)',
    );
  });
});
