import type * as Notify from './index';

let notify: typeof Notify | undefined;

/**
 * Loads the notifications bundle on first use. esbuild turns this `require('./index')` into `require('./notify.js')`
 * (see esbuild.js): error wording is not needed until something goes wrong.
 */
export function loadNotify(): typeof Notify {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  notify ??= require('./index') as typeof Notify;
  return notify;
}
