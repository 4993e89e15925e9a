import assert from 'node:assert/strict';
import { encodePathSegment, isLoopbackHost, parseBaseUrl } from '../../src/api/baseUrl';
import { type ApiError } from '../../src/api/errors';

describe('base URL rules (unit)', () => {
  it('keeps origin and path prefix, without trailing slashes', () => {
    assert.deepEqual(parseBaseUrl('https://host.example/panel/'), {
      origin: 'https://host.example',
      pathPrefix: '/panel',
      href: 'https://host.example/panel',
    });
    assert.equal(parseBaseUrl('https://host.example///').pathPrefix, '');
    assert.equal(parseBaseUrl('  https://host.example  ').href, 'https://host.example');
  });

  it('drops a pasted /api/v1 suffix', () => {
    assert.equal(parseBaseUrl('https://host.example/panel/api/v1/').href, 'https://host.example/panel');
  });

  it('requires https except on loopback', () => {
    assert.throws(() => parseBaseUrl('http://host.example'), /must use https/);
    assert.throws(() => parseBaseUrl('http://10.0.0.1:8080'), /must use https/);
    assert.equal(parseBaseUrl('http://127.0.0.1:3000').origin, 'http://127.0.0.1:3000');
    assert.equal(parseBaseUrl('http://127.8.9.10').origin, 'http://127.8.9.10');
    assert.equal(parseBaseUrl('http://localhost:3000').origin, 'http://localhost:3000');
    assert.equal(parseBaseUrl('http://[::1]:3000').origin, 'http://[::1]:3000');
    assert.throws(() => parseBaseUrl('http://localhost.evil.example'), /must use https/);
    assert.throws(() => parseBaseUrl('http://127.0.0.1.nip.example'), /must use https/);
  });

  it('rejects other schemes, credentials, query, fragment and garbage', () => {
    assert.throws(() => parseBaseUrl('ftp://host.example'), { kind: 'badConfig' });
    assert.throws(() => parseBaseUrl('https://user:pw@host.example'), /user name or password/);
    assert.throws(() => parseBaseUrl('https://host.example/?x=1'), /query/);
    assert.throws(() => parseBaseUrl('https://host.example/#top'), /fragment/);
    assert.throws(() => parseBaseUrl('https://host.example/?'), /query/);
    assert.throws(() => parseBaseUrl('not a url'), /not a valid URL/);
    assert.throws(() => parseBaseUrl(''), /No base URL/);
  });

  it('never quotes a key pasted as the address, in its message or its reason', () => {
    for (const key of ['hk_live_0123456789abcdef0123456789abcdef', 'apikey0123456789abcdef0123456789:abcdef']) {
      assert.throws(
        () => parseBaseUrl(key),
        (error: ApiError) => !JSON.stringify([error.message, error.reason]).includes(key.slice(0, 12)),
      );
    }
  });

  it('rejects port 0, which no server listens on', () => {
    assert.throws(() => parseBaseUrl('https://panel.example.com:0'), { kind: 'badConfig', message: /port 0/ });
    assert.equal(parseBaseUrl('https://panel.example.com:8443').origin, 'https://panel.example.com:8443');
  });

  it('recognises loopback hosts only', () => {
    assert.ok(isLoopbackHost('127.0.0.1'));
    assert.ok(isLoopbackHost('[::1]'));
    assert.ok(isLoopbackHost('LOCALHOST'));
    assert.ok(!isLoopbackHost('128.0.0.1'));
    assert.ok(!isLoopbackHost('127.0.0.1.example'));
  });

  it('encodes an id as exactly one path segment', () => {
    const cases: Array<[string, string]> = [
      ['42', '42'],
      ['../balance', '..%2Fbalance'],
      ['a/b?c#d', 'a%2Fb%3Fc%23d'],
      ['%2F', '%252F'],
      ['with space', 'with%20space'],
      ['ünï✓', '%C3%BCn%C3%AF%E2%9C%93'],
      ['..', '%2E%2E'],
      ['.', '%2E'],
    ];
    for (const [id, segment] of cases) {
      assert.equal(encodePathSegment(id), segment, id);
      assert.ok(!segment.includes('/') && !segment.includes('?') && !segment.includes('#'));
    }
    assert.throws(() => encodePathSegment(''), /empty/);
  });
});
