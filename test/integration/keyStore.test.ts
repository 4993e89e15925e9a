import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { type KeyStore } from '../../src/auth/KeyStore';
import { type TestApi } from '../../src/extension';
import { activeExtension, testApi } from './env';

/** Resolves on the event's next firing; rejects if it does not come in time. */
function nextEvent(event: vscode.Event<void>, what: string, timeoutMs = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`${what} did not fire within ${timeoutMs} ms`));
    }, timeoutMs);
    const subscription = event(() => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    });
  });
}

describe('the key store on the real SecretStorage', () => {
  let keys: KeyStore;

  before(async () => {
    const api = (await activeExtension()).exports as TestApi | undefined;
    assert.ok(api, 'the extension hands its test API to tests (extensionMode Test)');
    keys = api.model.first.keys;
  });

  after(async () => {
    await keys.delete();
  });

  it('stores, reads and deletes the key, announcing each change', async () => {
    await keys.delete();
    assert.equal(await keys.get(), undefined, 'no key at first');

    const key = testApi().key;
    const stored = nextEvent(keys.onDidChange, 'onDidChange after store');
    await keys.store(key);
    await stored;
    assert.equal(await keys.get(), key);

    const deleted = nextEvent(keys.onDidChange, 'onDidChange after delete');
    await keys.delete();
    await deleted;
    assert.equal(await keys.get(), undefined);
  });
});
