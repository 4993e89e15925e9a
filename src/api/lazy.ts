import type * as Api from './index';

let api: typeof Api | undefined;

/**
 * Loads the API bundle on first use. esbuild turns this `require('./index')` into `require('./api.js')`, a separate
 * file (see esbuild.js), so undici's ~300 KB are read only when the first request is made.
 */
export function loadApi(): typeof Api {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  api ??= require('./index') as typeof Api;
  return api;
}
