/**
 * Loads a CommonJS bundle with V8's code cache, kept per user: the first window of a version compiles the bundle as
 * `require` would and saves what V8 compiled (after activation, so the functions activation ran are in it); every
 * later window loads that instead of parsing the bundle again. It is what VS Code does for its own code; here it is
 * confined to our bundle (a `vm.Script` in this context), so no other extension's loading changes.
 *
 * V8 refuses a cache made by another V8, with other flags or for a source of another length; the file's name also
 * carries the bundle's size and modification time and the extension's version, so a rebuilt or updated bundle of the
 * same length never meets an old cache. The cache is written to a temporary name and renamed, so two windows never
 * read half a file. The directory must be the user's own: code read from it runs in the extension host.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { createRequire } from 'node:module';

/** `accepted`: compiled from the cache; `rejected`: the cache did not fit (it is replaced); `absent`: none yet. */
export type CacheUse = 'accepted' | 'rejected' | 'absent' | 'off';

export interface LoadedBundle<T> {
  readonly exports: T;
  readonly cache: CacheUse;
  /** Writes what V8 has compiled of the bundle so far, unless the cache was used as it is. True when written. */
  save(): Promise<boolean>;
}

export interface CacheOptions {
  /** The user's own directory for the cache files (its other `.code-cache` files are removed). */
  readonly dir: string;
  /** What else must match: the extension's version. */
  readonly key: string;
}

const SUFFIX = '.code-cache';

type CommonJsWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

function cacheName(file: string, key: string): string {
  const { size, mtimeMs } = fs.statSync(file);
  const parts = [path.basename(file), key, size, Math.floor(mtimeMs), process.arch, process.versions.v8];
  return parts.join('-').replace(/[^\w.-]/g, '_') + SUFFIX;
}

function readIfAny(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

export function loadBundle<T>(file: string, options?: CacheOptions): LoadedBundle<T> {
  const source = fs.readFileSync(file, 'utf8');
  const cacheFile = options && path.join(options.dir, cacheName(file, options.key));
  const cachedData = cacheFile === undefined ? undefined : readIfAny(cacheFile);
  // The wrapper `require` puts around a module, on the first line so the bundle's lines (and source map) hold.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  let script: vm.Script | undefined = new vm.Script(wrapped, { filename: file, cachedData });
  const cache: CacheUse =
    cacheFile === undefined
      ? 'off'
      : cachedData === undefined
        ? 'absent'
        : script.cachedDataRejected
          ? 'rejected'
          : 'accepted';
  const module = { exports: {} as unknown };
  (script.runInThisContext() as CommonJsWrapper)(module.exports, createRequire(file), module, file, path.dirname(file));
  return {
    exports: module.exports as T,
    cache,
    async save() {
      const compiled = script;
      script = undefined;
      if (!compiled || !options || cacheFile === undefined || cache === 'accepted') return false;
      const data = compiled.createCachedData();
      await fs.promises.mkdir(options.dir, { recursive: true });
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      // Older versions' caches, and what a window that closed while writing left.
      const keep = new Set([path.basename(cacheFile), path.basename(temporary)]);
      for (const name of await fs.promises.readdir(options.dir)) {
        if (!keep.has(name) && name.includes(SUFFIX)) {
          await fs.promises.rm(path.join(options.dir, name), { force: true });
        }
      }
      await fs.promises.writeFile(temporary, data);
      await fs.promises.rename(temporary, cacheFile);
      return true;
    },
  };
}
