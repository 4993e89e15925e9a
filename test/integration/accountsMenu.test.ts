import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { AUTH_PROVIDER_ID } from '../../src/accounts/AccountsAuthProvider';
import { Harness, KEY, waitFor } from './harness';

describe("the accounts in VS Code's Accounts menu", () => {
  let h: Harness;

  before(async () => {
    h = await Harness.start();
    await h.signIn({ orders: false });
  });
  after(() => h.dispose());

  it('lists the signed-in account with an opaque token, never the API key', async () => {
    const auth = h.api.auth;
    await waitFor(() => h.store.hasApiKey, 'the key');
    auth.update();
    const accounts = await vscode.authentication.getAccounts(AUTH_PROVIDER_ID);
    assert.deepEqual(
      accounts.map((a) => a.id),
      ['default'],
    );
    assert.equal(accounts[0]?.label, new URL(h.mock.url).host);
    // Another extension (and this one) gets a session only once the user allowed it: a silent request never prompts
    // and gets nothing before that consent.
    assert.equal(await vscode.authentication.getSession(AUTH_PROVIDER_ID, [], { silent: true }), undefined);
    // What it would get after consent: the account's id as an opaque token, never the key.
    const [session] = await auth.getSessions();
    assert.equal(session?.accessToken, 'default');
    assert.equal(session?.account.id, 'default');
    assert.notEqual(session?.accessToken, KEY);
    for (const own of await auth.getSessions()) assert.ok(!JSON.stringify(own).includes(KEY));
  });

  it('signs out (removes that account key) and tells VS Code the session is gone', async () => {
    const auth = h.api.auth;
    const gone = new Promise<vscode.AuthenticationSessionsChangeEvent>((resolve) => {
      const subscription = vscode.authentication.onDidChangeSessions((event) => {
        if (event.provider.id !== AUTH_PROVIDER_ID) return;
        subscription.dispose();
        resolve(event);
      });
    });
    await auth.removeSession('default');
    await waitFor(() => h.store.state === 'noKey', 'the key to be removed');
    await gone;
    assert.deepEqual(await auth.getSessions(), []);
    assert.equal(await h.keys.get(), undefined);
    assert.deepEqual(await vscode.authentication.getAccounts(AUTH_PROVIDER_ID), []);
    await h.signIn({ orders: false });
    await waitFor(() => h.store.hasApiKey, 'the key again');
  });
});
