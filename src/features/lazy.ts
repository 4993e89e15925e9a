import type * as Features from './index';

let features: typeof Features | undefined;

/**
 * Loads the features bundle (filter and sort, badges, the watch for outside changes, the assistant's tools) once
 * there is a key to use: esbuild turns this `require('./index')` into `require('./features.js')` (see esbuild.js).
 */
export function loadFeatures(): typeof Features {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  features ??= require('./index') as typeof Features;
  return features;
}
