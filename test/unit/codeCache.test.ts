import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadBundle } from '../../src/util/codeCache';

interface Bundle {
  answer(): number;
  file: string;
  dir: string;
  sibling(): unknown;
}

/** A bundle as esbuild writes one: CommonJS, requiring a builtin and a file beside it. */
const SOURCE = [
  "'use strict';",
  "const path = require('node:path');",
  'exports.answer = function answer() { return 6 * 7; };',
  'exports.file = __filename;',
  'exports.dir = path.basename(__dirname);',
  "exports.sibling = () => require('./sibling.js').value;",
  '',
].join('\n');

interface Window {
  cache: string;
  answer: number;
  written: boolean;
}

/**
 * One window: a new process loads the bundle, runs it and saves the cache, as the extension host does. (Within one
 * process V8 keeps what it compiled and never looks at a cache for the same source again.)
 */
function window(bundle: string, dir: string, key: string): Window {
  const script = [
    `const { loadBundle } = require(${JSON.stringify(require.resolve('../../src/util/codeCache'))});`,
    `const loaded = loadBundle(${JSON.stringify(bundle)}, { dir: ${JSON.stringify(dir)}, key: ${JSON.stringify(key)} });`,
    'const answer = loaded.exports.answer();',
    'loaded.save().then((written) => console.log(JSON.stringify({ cache: loaded.cache, answer, written })));',
  ].join('\n');
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as Window;
}

describe('loading the bundle with V8’s code cache', () => {
  let root: string;
  let bundle: string;
  let cacheDir: string;
  const cacheFiles = (): string[] => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : []);

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'code-cache-'));
    fs.mkdirSync(path.join(root, 'dist'));
    bundle = path.join(root, 'dist', 'main.js');
    fs.writeFileSync(bundle, SOURCE);
    fs.writeFileSync(path.join(root, 'dist', 'sibling.js'), 'exports.value = "beside";\n');
    cacheDir = path.join(root, 'storage', 'code-cache');
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('runs the bundle as require would: its exports, __filename, __dirname and require beside it', () => {
    const loaded = loadBundle<Bundle>(bundle);
    assert.equal(loaded.cache, 'off');
    assert.equal(loaded.exports.answer(), 42);
    assert.equal(loaded.exports.file, bundle);
    assert.equal(loaded.exports.dir, 'dist');
    assert.equal(loaded.exports.sibling(), 'beside');
  });

  it('saves the cache after the first load and uses it in the next window', () => {
    assert.deepEqual(window(bundle, cacheDir, '1.0.0'), { cache: 'absent', answer: 42, written: true });
    assert.equal(cacheFiles().length, 1);
    assert.match(cacheFiles()[0] ?? '', /\.code-cache$/);
    assert.deepEqual(window(bundle, cacheDir, '1.0.0'), { cache: 'accepted', answer: 42, written: false });
  });

  it('saves once per load', async () => {
    const loaded = loadBundle<Bundle>(bundle, { dir: cacheDir, key: '1.0.0' });
    assert.equal(await loaded.save(), true);
    assert.equal(await loaded.save(), false);
  });

  it('refuses a damaged cache, still runs the bundle, and replaces it', () => {
    window(bundle, cacheDir, '1.0.0');
    const file = path.join(cacheDir, cacheFiles()[0] ?? '');
    fs.writeFileSync(file, Buffer.from('not what V8 wrote, not what V8 wrote, not what V8 wrote'));
    assert.deepEqual(window(bundle, cacheDir, '1.0.0'), { cache: 'rejected', answer: 42, written: true });
    assert.deepEqual(window(bundle, cacheDir, '1.0.0'), { cache: 'accepted', answer: 42, written: false });
  });

  it('never meets the cache of another build: a new version or a rebuilt bundle of the same length starts afresh', () => {
    window(bundle, cacheDir, '1.0.0');
    assert.equal(window(bundle, cacheDir, '1.0.1').cache, 'absent');
    assert.equal(cacheFiles().length, 1, 'the older version’s cache is removed when the new one is written');

    // Same length, other code: V8 alone would take the old cache (it checks the source's length, not its text).
    fs.writeFileSync(bundle, SOURCE.replace('6 * 7', '7 * 7'));
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(bundle, later, later);
    assert.deepEqual(window(bundle, cacheDir, '1.0.1'), { cache: 'absent', answer: 49, written: true });
    assert.deepEqual(window(bundle, cacheDir, '1.0.1'), { cache: 'accepted', answer: 49, written: false });
  });

  it('leaves no half-written file behind and removes what a closed window left', async () => {
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(path.join(cacheDir, 'main.js-0.9.0-1-1-x64-1.code-cache.123.tmp'), 'partial');
    fs.writeFileSync(path.join(cacheDir, 'unrelated.txt'), 'kept');
    const loaded = loadBundle<Bundle>(bundle, { dir: cacheDir, key: '1.0.0' });
    await loaded.save();
    assert.deepEqual(
      cacheFiles()
        .map((name) => (name.endsWith('.code-cache') ? 'cache' : name))
        .sort(),
      ['cache', 'unrelated.txt'],
    );
  });
});
