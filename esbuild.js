// Bundles the extension. Six entries on purpose: `extension.js` is what VS Code loads at activation and must stay
// small; `api.js` carries the HTTP stack (undici) and is required when the first request is made; `commands.js` holds
// the prompts and pickers, required when the user first runs a command; `notify.js` words failures, required when the
// first one has to be told; `actions.js` sends an action and polls its order, required by the first action;
// `features.js` holds filter and sort, badges, the outside-change watch and the assistant's tools, required once a key
// is set. The error classes and the tree nodes a command is invoked on live in `extension.js` only: the lazy bundles
// take them from it, so one class exists at run time and `instanceof` holds across bundles.
const esbuild = require('esbuild');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Bundles loaded on first use, by the module whose `require('./index')` loads them. */
const lazyBundles = {
  [path.join('src', 'api', 'lazy.ts')]: './api.js',
  [path.join('src', 'commands', 'lazy.ts')]: './commands.js',
  [path.join('src', 'notify', 'lazy.ts')]: './notify.js',
  [path.join('src', 'store', 'orders', 'lazy.ts')]: './actions.js',
  [path.join('src', 'features', 'lazy.ts')]: './features.js',
  [path.join('src', 'accounts', 'lazy.ts')]: './accounts.js',
};

/**
 * Modules whose classes must be one at run time: bundled into `extension.js`, which re-exports them. A lazy bundle
 * gets only what `extension.ts` re-exports (of `InvoicesTreeProvider.ts`, the `InvoiceNode` class alone).
 */
const sharedModules = [
  path.join('src', 'api', 'errors.ts'),
  path.join('src', 'auth', 'KeyStore.ts'),
  path.join('src', 'store', 'errors.ts'),
  path.join('src', 'views', 'orders', 'OrderNode.ts'),
  path.join('src', 'views', 'invoices', 'InvoicesTreeProvider.ts'),
];

/**
 * In the lazy bundles, an import of a shared module becomes `require('./extension.js')`: the activation bundle, already
 * loaded (and cached by Node) when any lazy bundle is required.
 */
const sharedModulesPlugin = {
  name: 'shared-modules',
  setup(build) {
    build.onResolve({ filter: /\/(?:errors|KeyStore|OrderNode|InvoicesTreeProvider)$/ }, (args) => {
      const resolved = path.normalize(path.join(args.resolveDir, `${args.path}.ts`));
      return sharedModules.some((module) => resolved.endsWith(module))
        ? { path: './extension.js', external: true }
        : undefined;
    });
  },
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
  const common = {
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
  };
  const extra = watch ? [problemMatcherPlugin] : [];
  const contexts = await Promise.all([
    esbuild.context({
      ...common,
      entryPoints: { extension: 'src/extension.ts' },
      plugins: [lazyBundlesPlugin, ...extra],
    }),
    esbuild.context({
      ...common,
      entryPoints: {
        api: 'src/api/index.ts',
        commands: 'src/commands/index.ts',
        notify: 'src/notify/index.ts',
        actions: 'src/store/orders/index.ts',
        features: 'src/features/index.ts',
        accounts: 'src/accounts/index.ts',
      },
      plugins: [lazyBundlesPlugin, sharedModulesPlugin, ...extra],
    }),
  ]);
  if (watch) {
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    return;
  }
  const results = await Promise.all(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
  if (process.argv.includes('--sizes')) {
    for (const result of results) {
      for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) {
        if (file.endsWith('.js')) console.log(`${file}\t${bytes} bytes`);
      }
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
