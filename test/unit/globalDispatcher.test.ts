import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const root = join(__dirname, '..', '..', '..');

/**
 * Other extensions' `fetch` finds its dispatcher in a slot on `globalThis`; undici fills it the first time its
 * lib/global.js loads. The API bundle must load, build proxy dispatchers and send without ever touching it. Checked
 * in a fresh Node process on the bundle esbuild makes, as VS Code loads it.
 */
describe('the global dispatcher slot (unit)', function () {
  this.timeout(30_000);
  let dir: string;
  let bundle: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hosting-bundle-'));
    const result = await build({
      // The client and its limiters, with undici inlined (the extension loads it as a bundle of its own).
      stdin: {
        contents: "export { ApiClient } from './ApiClient';\nexport { LimiterRegistry } from './RateLimiter';\n",
        resolveDir: join(root, 'src', 'api'),
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode'],
      write: false,
      logLevel: 'silent',
    });
    bundle = result.outputFiles[0]?.text ?? '';
    writeFileSync(join(dir, 'api.js'), bundle);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is not in the API bundle at all', () => {
    assert.ok(bundle.includes('CONNECT') || bundle.includes('proxy-agent'), 'the bundle carries the proxy code');
    assert.ok(!bundle.includes('undici.globalDispatcher'), 'undici/lib/global.js was bundled');
  });

  for (const preset of [false, true]) {
    it(`stays ${preset ? 'as another dispatcher left it' : 'empty'} after loading the bundle and sending through a proxy`, async () => {
      const script = `
        const slots = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')];
        const sentinel = { dispatch() {} };
        if (${preset}) for (const slot of slots) globalThis[slot] = sentinel;
        const read = () => slots.map((slot) => { const d = Object.getOwnPropertyDescriptor(globalThis, slot); return d === undefined ? 'empty' : d.value === sentinel ? 'sentinel' : 'other'; });
        const before = read();
        const api = require(${JSON.stringify(join(dir, 'api.js'))});
        const client = new api.ApiClient({ baseUrl: 'https://api.test:9', getKey: () => 'k', userAgent: 't', retry: { maxAttempts: 1 }, limiters: new api.LimiterRegistry(),
          network: { proxy: 'http://127.0.0.1:9', systemCertificates: true } });
        client.getBalance().then(() => 'ok', (e) => e.code).then(async (outcome) => {
          await client.dispose();
          console.log(JSON.stringify({ before, after: read(), outcome }));
        });`;
      const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { timeout: 20_000 });
      const { before, after, outcome } = JSON.parse(stdout) as { before: string[]; after: string[]; outcome: string };
      const expected = preset ? ['sentinel', 'sentinel'] : ['empty', 'empty'];
      assert.deepEqual(before, expected);
      assert.deepEqual(after, expected);
      assert.equal(outcome, 'proxy_unreachable', 'the request did go through the proxy code');
    });
  }
});
