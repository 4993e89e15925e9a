import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  captureMessages,
  captureOpenExternal,
  fakeInputBox,
  type FakeInputBox,
  Harness,
  KEY,
  waitFor,
} from './harness';

describe('API key management', () => {
  let h: Harness;
  const restores: Array<() => void> = [];

  before(async () => {
    h = await Harness.start();
  });
  after(() => h.dispose());
  afterEach(async () => {
    for (const restore of restores.splice(0)) restore();
    await h.keys.delete();
    await waitFor(() => h.store.state === 'noKey', 'sign-out');
    h.mock.clearLog();
  });

  function typeKeys(...keys: Array<string | undefined>): FakeInputBox {
    const { box, restore } = fakeInputBox(keys);
    restores.push(restore);
    return box;
  }

  it('starts signed out: nothing is requested without a key', () => {
    assert.equal(h.store.state, 'noKey');
    assert.equal(h.store.hasApiKey, false);
    assert.equal(h.requests().length, 0);
  });

  it('says what to do when Refresh runs signed out (a keybinding can still run it), and sends nothing', async () => {
    const messages = captureMessages();
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.refresh');
    assert.equal(messages.shown.length, 1);
    assert.match(messages.shown[0]?.message ?? '', /API key/);
    assert.deepEqual(messages.shown[0]?.options, ['Set API Key…']);
    assert.equal(h.requests().length, 0);
  });

  it('asks in a password box, checks the key with GET /me, then stores it and loads the data', async () => {
    const box = typeKeys(KEY);
    const messages = captureMessages();
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.setApiKey');
    assert.equal(box.password, true);
    assert.equal(box.ignoreFocusOut, true);
    assert.equal(box.hidden, true, 'the box closes once the key is accepted');
    assert.equal(await h.keys.get(), KEY);
    assert.equal(h.requests('GET /api/v1/me').length, 1);
    assert.equal(h.requests('GET /api/v1/me')[0]?.authorization, `Bearer ${KEY}`);
    assert.match(messages.shown.find((m) => m.level === 'info')?.message ?? '', /Signed in as Ada Lovelace/);
    await vscode.commands.executeCommand('hostingAccount.orders.focus');
    await waitFor(() => h.store.state === 'ready' && h.store.orders.size > 0, 'orders after sign-in');
    await waitFor(() => h.store.balance.value, 'the balance after sign-in');
    assert.equal(h.requests('GET /api/v1/me').length, 1, 'the account read while verifying is reused');
  });

  it('does not store a key the server rejects, says why in the box, and accepts the right one next', async () => {
    const box = typeKeys('wrong-key-0000', KEY);
    await vscode.commands.executeCommand('hostingAccount.setApiKey');
    assert.deepEqual(box.messages, [
      'The hosting API rejected this API key, so it was not saved. Check that you copied all of it.',
    ]);
    assert.equal(await h.keys.get(), KEY);
    assert.deepEqual(
      h.requests('GET /api/v1/me').map((r) => r.status),
      [401, 200],
    );
  });

  it('stores nothing when the box is dismissed after a rejected key', async () => {
    const box = typeKeys('wrong-key-0000');
    const messages = captureMessages();
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.setApiKey');
    assert.equal(box.messages.length, 1);
    assert.equal(await h.keys.get(), undefined);
    assert.equal(h.store.state, 'noKey');
    assert.equal(messages.shown.length, 0, 'a dismissed box is a cancel: no notification');
  });

  it('treats an empty input as a cancel', async () => {
    typeKeys('   ');
    const messages = captureMessages();
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.setApiKey');
    assert.equal(h.requests().length, 0);
    assert.equal(messages.shown.length, 0);
  });

  it('removes the key and returns the views to their welcome state', async () => {
    await h.signIn();
    await vscode.commands.executeCommand('hostingAccount.removeApiKey');
    assert.equal(await h.keys.get(), undefined);
    await waitFor(() => h.store.state === 'noKey', 'the signed-out state');
    assert.deepEqual(await h.api.orders.getChildren(), []);
    assert.deepEqual(h.api.invoices.getChildren(), []);
  });

  it('picks up a key changed in another window (secrets.onDidChange)', async () => {
    await h.keys.store(KEY);
    await waitFor(() => h.store.hasApiKey, 'the key from the other window');
    await h.keys.delete();
    await waitFor(() => !h.store.hasApiKey, 'the removal from the other window');
  });

  it('shows the signed-out state again when the server revokes the key', async () => {
    await h.signIn();
    const messages = captureMessages();
    restores.push(messages.restore);
    h.mock.setKeys(['another-key']);
    try {
      await h.store.refresh(['orders', 'balance'], 'background');
      assert.equal(h.store.state, 'invalidKey');
      assert.deepEqual(await h.api.orders.getChildren(), [], 'the welcome view explains it');
      assert.equal(messages.shown.length, 1, 'one notification, not one per endpoint');
      assert.match(messages.shown[0]?.message ?? '', /rejected the API key/);
    } finally {
      h.mock.setKeys([KEY, h.key]);
    }
  });

  it("opens the provider's API keys page in the browser", async () => {
    const opened = await captureOpenExternal(() => vscode.commands.executeCommand('hostingAccount.openApiKeysPage'));
    assert.equal(opened?.toString(true), `${h.mock.url}/client/api-keys`);
  });

  it('writes requests to the log with the key masked', async () => {
    await h.signIn();
    const line = h.api.log.mask(`Bearer ${h.key}`);
    assert.equal(line, 'Bearer ***');
  });
});
