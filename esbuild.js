// Bundles the extension. Four entries on purpose: `extension.js` is what VS Code loads at activation and must stay
// small; `api.js` carries the HTTP stack (undici) and is required when the first request is made; `commands.js` holds
// the prompts, pickers and error messages, required when the user first runs a command or a failure is reported;
// `features.js` holds filter and sort, badges, the outside-change watch and the assistant's tools, required once a key
// is set.
const esbuild = require('esbuild');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Bundles loaded on first use, by the module whose `require('./index')` loads them. */
const lazyBundles = {
  [path.join('src', 'api', 'lazy.ts')]: './api.js',
  [path.join('src', 'commands', 'lazy.ts')]: './commands.js',
  [path.join('src', 'features', 'lazy.ts')]: './features.js',
};

/** Keeps each lazy `require('./index')` out of the activation bundle: it becomes `require('./api.js')` and so on. */
const lazyBundlesPlugin = {
  name: 'lazy-bundles',
  setup(build) {
    build.onResolve({ filter: /^\.\/index$/ }, (args) => {
      const importer = path.normalize(args.importer);
      const target = Object.entries(lazyBundles).find(([module]) => importer.endsWith(module));
      return target ? { path: target[1], external: true } : undefined;
    });
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
  const ctx = await esbuild.context({
    entryPoints: { extension: 'src/extension.ts', api: 'src/api/index.ts', commands: 'src/commands/index.ts', features: 'src/features/index.ts' },
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
    plugins: [lazyBundlesPlugin, ...(watch ? [problemMatcherPlugin] : [])],
  });
  if (watch) {
    await ctx.watch();
    return;
  }
  const result = await ctx.rebuild();
  await ctx.dispose();
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
