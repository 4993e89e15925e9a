import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
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
});
