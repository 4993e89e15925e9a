// Bundles the extension into two files: `extension.js`, everything VS Code loads at activation, and `undici.js`, the
// HTTP stack (undici, about 300 KB), which `src/api/undici.ts` requires on the first request. Measured in the real
// extension host (`npm run bench`), loading the rest of the extension at activation costs a few milliseconds; only
// undici is worth keeping off that path.
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
