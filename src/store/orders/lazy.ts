import type * as Actions from './index';

let actions: typeof Actions | undefined;

/** Loads the actions bundle on first use. esbuild turns this `require('./index')` into `require('./actions.js')`. */
export function loadActions(): typeof Actions {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  actions ??= require('./index') as typeof Actions;
  return actions;
}
