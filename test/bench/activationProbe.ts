/**
 * One activation, in a fresh Node process: loads a bundle with `vscode` stood in, calls `activate`, and prints the
 * times and whether the HTTP stack was loaded. Run by activation.ts, once per sample.
 */
import { performance } from 'node:perf_hooks';
import { installStandIn, standInContext } from './vscodeStandIn';

installStandIn();
const bundle = process.argv[2] ?? '';
const started = performance.now();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const extension = require(bundle) as { activate(context: unknown): unknown };
const loaded = performance.now();
extension.activate(standInContext());
const activated = performance.now();
setImmediate(() => {
  const modules = Object.keys(require.cache);
  process.stdout.write(
    JSON.stringify({
      loadMs: loaded - started,
      activateMs: activated - loaded,
      httpLoaded: modules.some((file) => /[\\/]undici(?:\.js|[\\/])/.test(file)),
    }),
    // Activation is measured: what the extension schedules for later (the Accounts menu a second on) is not.
    () => process.exit(0),
  );
});
