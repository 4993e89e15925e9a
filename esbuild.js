// Bundles the extension: `extension.js`, everything activation runs, and `undici.js`, the HTTP stack (about 300 KB),
// which `src/api/undici.ts` requires on the first request: the one part worth keeping off activation's path.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** `require('./undiciParts')` in src/api/undici.ts is the lazily loaded bundle, not code to inline. */
const lazyUndiciPlugin = {
  name: 'lazy-undici',
  setup(build) {
    build.onResolve({ filter: /^\.\/undiciParts$/ }, (args) =>
      args.kind === 'require-call' ? { path: './undici.js', external: true } : undefined,
    );
  },
};

/** Prints errors in the format of the `$esbuild-watch` problem matcher. */
const problemMatcherPlugin = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

/**
 * esbuild turns each module's `import * as vscode from 'vscode'` into `__toESM(require("vscode"))`, which copies every
 * property of VS Code's API object into a new namespace object: some sixty modules times hundreds of properties at
 * every activation. The API object is used as it is (no default import, only its properties), so the plain `require`
 * gives each module the same object without the copies. The statement is one line of its own, so a source map holds.
 */
function plainVscodeRequires(file) {
  const text = fs.readFileSync(file, 'utf8');
  const wrapped = /\b([A-Za-z_$][\w$]*)\(require\("vscode"\)\)/g;
  const helpers = new Set([...text.matchAll(wrapped)].map((m) => m[1]));
  if (helpers.size !== 1)
    throw new Error(`expected one helper around require("vscode"), found ${[...helpers].join(', ')}`);
  const [helper] = helpers;
  fs.writeFileSync(file, text.split(`${helper}(require("vscode"))`).join('require("vscode")'));
}

async function main() {
  const context = await esbuild.context({
    entryPoints: { extension: 'src/extension.ts', undici: 'src/api/undiciParts.ts' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outdir: 'dist',
    external: ['vscode'],
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    legalComments: production ? 'none' : 'inline',
    logLevel: 'warning',
    metafile: true,
    plugins: [lazyUndiciPlugin, ...(watch ? [problemMatcherPlugin] : [])],
  });
  if (watch) {
    await context.watch();
    return;
  }
  const result = await context.rebuild();
  await context.dispose();
  plainVscodeRequires(path.join('dist', 'extension.js'));
  if (process.argv.includes('--sizes')) {
    for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) {
      if (file.endsWith('.js')) console.log(`${file}\t${bytes} bytes`);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
