import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type TestApi } from '../../src/testApi';
import { extension, extensionId, testApi } from './env';

describe('the extension', () => {
  it('is present in the extension host', () => {
    assert.equal(extension().id, extensionId);
  });

  it('reads the mock API address from the user settings', () => {
    const baseUrl = vscode.workspace.getConfiguration('hostingAccount').get<string>('baseUrl');
    assert.equal(baseUrl, testApi().url);
  });

  it('activates', async () => {
    const ext = extension();
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('keeps the code cache of its bundle in its own global storage, for the next window', async function () {
    this.timeout(20_000);
    const api = (await extension().activate()) as TestApi;
    const dir = path.join(api.context.globalStorageUri.fsPath, 'code-cache');
    const { version } = extension().packageJSON as { version: string };
    const deadline = Date.now() + 15_000;
    let names: string[] = [];
    while (Date.now() < deadline) {
      names = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
      if (names.some((name) => name.endsWith('.code-cache'))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const caches = names.filter((name) => name.endsWith('.code-cache'));
    assert.equal(caches.length, 1, `one cache in ${names.join(', ') || 'an empty directory'}`);
    assert.ok(caches[0]?.startsWith(`main.js-${version}-`), caches[0]);
    assert.ok(fs.statSync(path.join(dir, caches[0] ?? '')).size > 10_000, 'what V8 compiled, not an empty file');
  });
});
