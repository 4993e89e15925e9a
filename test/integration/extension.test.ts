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

  it('runs its bundle as VS Code loads it: nothing executable is read from its storage', async function () {
    this.timeout(20_000);
    const api = (await extension().activate()) as TestApi;
    // A damaged or planted cache file must have nothing to reach: the bundle never compiles code it reads.
    const bundle = fs.readFileSync(path.join(extension().extensionPath, 'dist', 'extension.js'), 'utf8');
    assert.ok(!/\bcachedData\b|new\s+\w+\.Script\(/.test(bundle), 'no vm.Script with cached data in the bundle');
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const storage = api.context.globalStorageUri.fsPath;
    assert.ok(!fs.existsSync(path.join(storage, 'code-cache')), 'no code cache written');
  });
});
