/**
 * What VS Code loads (`dist/extension.js`): it loads the extension's bundle (`dist/main.js`, built from
 * `extension.ts`) with V8's code cache from this extension's global storage, then activates it. Measured in the real
 * extension host (`npm run bench`), the cache takes the bundle's parse and most of the compiling that activation
 * does off every window but the first of each version.
 */

import * as path from 'node:path';
import type * as vscode from 'vscode';
import type * as Extension from './extension';
import { type LoadedBundle, loadBundle } from './util/codeCache';

type Main = typeof Extension;

/** Late enough to hold what activation and the first view compiled, early enough to come before most reloads. */
const SAVE_AFTER_MS = 3_000;

let main: LoadedBundle<Main> | undefined;

export function activate(context: vscode.ExtensionContext): ReturnType<Main['activate']> {
  const storage = context.globalStorageUri;
  const { version } = context.extension.packageJSON as { version: string };
  main = loadBundle<Main>(
    path.join(__dirname, 'main.js'),
    storage.scheme === 'file' ? { dir: path.join(storage.fsPath, 'code-cache'), key: version } : undefined,
  );
  const api = main.exports.activate(context);
  const bundle = main;
  // A cache that cannot be written only costs the next window its parse: nothing to tell or log.
  const timer = setTimeout(() => void bundle.save().catch(() => undefined), SAVE_AFTER_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(timer) });
  return api;
}

export function deactivate(): void {
  main?.exports.deactivate();
}
