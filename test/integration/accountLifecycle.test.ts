/**
 * The life of an account beyond one window: Sign In from the Accounts menu in a window never set up, list changes
 * made in another window, moving an account to another address, settings reaching added accounts.
 *
 * Named to run first: the first test looks at a window where nothing loaded the accounts bundle on demand.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import {
  ACCOUNTS_STATE_KEY,
  addAccount,
  CHANGE_MARKER_SECRET,
  DEFAULT_ACCOUNT_ID,
  markerOf,
  readStoredAccounts,
  removeAccount,
  type StoredAccounts,
} from '../../src/accounts/accountList';
import { secretNameOf } from '../../src/auth/secretNames';
import { AUTH_PROVIDER_ID } from '../../src/accounts/AccountsAuthProvider';
import { type OrdersTreeNode } from '../../src/views/orders/OrdersTree';
import { type MockApi } from '../mock-api/server';
import { captureMessages, extraMock, fakeInputBox, Harness, KEY, stubWindow, waitFor } from './harness';
import { plain } from '../../src/util/serverText';

const SECOND = 'other001';
const SECOND_KEY = 'other-window-key-0123456789';

describe('accounts across windows and addresses', () => {
  let h: Harness;
  let second: MockApi;
  let third: MockApi;
  let marks = 0;

  const accounts = () => h.api.model;
  const text = (label: string | vscode.TreeItemLabel | undefined): string =>
    typeof label === 'string' ? label : (label?.label ?? '');
  const labels = (nodes: readonly OrdersTreeNode[]): string[] =>
    nodes.map((n) => text(h.api.orders.getTreeItem(n).label));
  const allLabels = async (): Promise<string[]> => {
    const top = await h.api.orders.getChildren();
    const nested = await Promise.all(top.map((node) => h.api.orders.getChildren(node)));
    return [...labels(top), ...nested.flatMap(labels)];
  };

  /** What another window does: writes the shared list, then the marker secret every window hears. */
  async function writeAsOtherWindow(change: (stored: StoredAccounts) => StoredAccounts): Promise<void> {
    const { globalState, secrets } = h.api.context;
    const next = change(readStoredAccounts(globalState.get(ACCOUNTS_STATE_KEY)));
    await globalState.update(ACCOUNTS_STATE_KEY, next);
    await secrets.store(CHANGE_MARKER_SECRET, markerOf(next, ++marks));
  }

  before(async () => {
    h = await Harness.start();
    const [running, stopped] = [h.mock.state.getOrder(1001), h.mock.state.getOrder(1003)];
    assert.ok(running && stopped);
    const seed = (prefix: string) => ({
      orders: [
        { ...running, name: `${prefix}-web` },
        { ...stopped, name: `${prefix}-stopped` },
      ],
      balance: { balance: 7, currency: 'USD', credit_limit: 0 },
    });
    second = await extraMock('second account', { keys: [SECOND_KEY, 'another-key'], seed: seed('other') });
    third = await extraMock('new address of the second account', {
      keys: [SECOND_KEY, KEY, h.key],
      seed: seed('moved'),
    });
  });

  after(async () => {
    await writeAsOtherWindow((s) => removeAccount(s, SECOND));
    await h.api.context.secrets.delete(secretNameOf(SECOND));
    await h.setSetting('refreshInterval', undefined);
    await h.setSetting('maxRequestsPerMinute', undefined);
    await h.setSetting('websiteUrl', undefined);
    await second.close();
    await third.close();
    await h.dispose();
  });

  it("serves the assistant's tools from an added account's key while the first has none", async () => {
    assert.equal(h.store.hasApiKey, false, 'the first account is signed out');
    const early = 'early001';
    await writeAsOtherWindow((s) => addAccount(s, { id: early, label: 'Only key', baseUrl: second.url }));
    await h.api.context.secrets.store(secretNameOf(early), SECOND_KEY);
    try {
      const account = await waitFor(() => accounts().get(early), 'the account added elsewhere');
      await waitFor(() => account.store.hasApiKey, "the added account's key to be picked up");
      const result = await h.api.tools.listOrders.invoke({
        input: {},
        toolInvocationToken: undefined,
      });
      const text = (result.content[0] as vscode.LanguageModelTextPart).value;
      assert.match(text, /other-web/, "the added account's orders are listed");
      assert.match(text, /Only key/, 'named by their account');
      assert.equal(h.store.hasApiKey, false, 'still no key for the first account');
    } finally {
      await writeAsOtherWindow((s) => removeAccount(s, early));
      await h.api.context.secrets.delete(secretNameOf(early));
    }
    await waitFor(() => !accounts().get(early), 'the account to go');
  });

  it('offers the Accounts menu in a signed-out window, and signs in there with an address and a key', async () => {
    // Nothing here asks for the accounts bundle: the provider must be there on its own, shortly after activation.
    let listed: readonly vscode.AuthenticationSessionAccountInformation[] | undefined;
    for (let tries = 0; !listed && tries < 20; tries++) {
      listed = await vscode.authentication.getAccounts(AUTH_PROVIDER_ID).then(
        (list) => list,
        () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 250)),
      );
    }
    assert.deepEqual(listed, [], 'the provider is registered, with no account signed in');
    assert.equal(
      await vscode.authentication.getSession(AUTH_PROVIDER_ID, [], { createIfNone: false }),
      undefined,
      'no session, and no "no provider" error',
    );

    // A window never set up: no address, no key. Sign In asks for both and checks the key with /me.
    await h.setSetting('baseUrl', undefined);
    await waitFor(() => h.store.state === 'noBaseUrl', 'the unconfigured state');
    const asked: string[] = [];
    const restoreInput = stubWindow('showInputBox', (options: vscode.InputBoxOptions) => {
      asked.push(options.prompt ?? '');
      assert.equal(options.validateInput?.('http://far.example') !== undefined, true, 'plain http refused');
      return Promise.resolve(h.mock.url);
    });
    const { restore: restoreBox } = fakeInputBox([KEY]);
    h.mock.clearLog();
    try {
      const session = await h.api.auth.createSession();
      assert.equal(session.id, DEFAULT_ACCOUNT_ID);
      assert.equal(session.accessToken, DEFAULT_ACCOUNT_ID);
    } finally {
      restoreInput();
      restoreBox();
    }
    assert.equal(asked.length, 1, 'only the address is asked, then the key');
    const setting = vscode.workspace.getConfiguration('hostingAccount').inspect<string>('baseUrl');
    assert.equal(setting?.globalValue, h.mock.url.replace(/\/$/, ''));
    assert.equal(await h.keys.get(), KEY);
    assert.equal(h.requests('GET /api/v1/me').length, 1, 'the key was checked with /me');
    assert.deepEqual(
      (await vscode.authentication.getAccounts(AUTH_PROVIDER_ID)).map((a) => a.id),
      [DEFAULT_ACCOUNT_ID],
    );
  });

  it('follows an account added in another window, waiting for its list to arrive, then its key', async () => {
    await h.signIn();
    const { globalState, secrets } = h.api.context;
    const next = addAccount(readStoredAccounts(globalState.get(ACCOUNTS_STATE_KEY)), {
      id: SECOND,
      label: 'Other window',
      baseUrl: second.url,
    });
    // The marker may arrive before the list it announces: the window waits for the list.
    await secrets.store(CHANGE_MARKER_SECRET, markerOf(next, ++marks));
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal(accounts().get(SECOND), undefined, 'not there before the list is');
    await globalState.update(ACCOUNTS_STATE_KEY, next);
    const ctx = await waitFor(() => accounts().get(SECOND), 'the account added elsewhere to show');
    await waitFor(() => ctx.store.state === 'noKey', 'its store to look for its key');
    // Its key, stored in that other window, arrives through secrets.onDidChange.
    await secrets.store(secretNameOf(SECOND), SECOND_KEY);
    await waitFor(() => ctx.store.hasApiKey, 'the key set elsewhere to be picked up');
    await ctx.store.refresh(['orders', 'balance'], 'user');
    await waitFor(() => ctx.store.state === 'ready', 'the added account to load');
    const rows = await h.api.orders.getChildren();
    assert.deepEqual(labels(rows), [new URL(h.mock.url).host, 'Other window']);
    assert.deepEqual(labels(await h.api.orders.getChildren(rows[1])).sort(), ['other-stopped', 'other-web']);
  });

  it('moves an added account to another address after confirming, keeping its key, showing nothing of the old', async () => {
    const before = accounts().get(SECOND);
    assert.ok(before);
    const generation = before.store.generation;
    const oldNodes = await h.api.orders.getChildren((await h.api.orders.getChildren())[1]);
    assert.ok(oldNodes.length);
    // A slow answer of the old address, under way while the address changes: it must never show.
    second.faults.add({ kind: 'delay', delayMs: 1_500, path: '/api/v1/orders' });
    const late = before.store.refresh(['orders'], 'user').catch(() => undefined);
    await waitFor(() => before.store.ordersInfo.loading, 'the slow refresh to start');

    const prompts: Array<string | undefined> = [];
    const answers = [third.url, ''];
    const restoreInput = stubWindow('showInputBox', (options: vscode.InputBoxOptions) => {
      prompts.push(options.value);
      return Promise.resolve(answers.shift());
    });
    const messages = captureMessages({ warning: 'Change Address' });
    try {
      await vscode.commands.executeCommand('hostingAccount.account.editAddress', accounts().get(SECOND));
    } finally {
      restoreInput();
      messages.restore();
    }
    assert.deepEqual(prompts, [second.url.replace(/\/$/, ''), '']);
    const [confirm] = messages.shown;
    assert.equal(confirm?.level, 'warning');
    assert.ok(confirm.message.includes(new URL(third.url).origin), confirm.message);
    assert.ok(confirm.message.includes('API key'), confirm.message);
    assert.equal((confirm.options[0] as vscode.MessageOptions).modal, true);

    const record = accounts().records.find((r) => r.id === SECOND);
    assert.equal(record?.baseUrl, third.url.replace(/\/$/, ''));
    const after = accounts().get(SECOND);
    assert.ok(after === before && after.store.generation !== generation, 'the same account, its store started over');
    assert.equal(await after.keys.get(), SECOND_KEY, 'the key stays with the account');

    await late;
    second.clearLog();
    third.clearLog();
    await after.store.refresh(['orders', 'balance'], 'user');
    await waitFor(() => after.store.state === 'ready', 'the account to load from its new address');
    await new Promise((resolve) => setTimeout(resolve, 300));
    second.faults.clear();
    assert.equal(second.requests.length, 0, 'the old address gets no more requests');
    assert.ok(third.requests.some((r) => r.rawPath === '/api/v1/orders'));
    const shown = await allLabels();
    assert.ok(shown.includes('moved-web'), shown.join(', '));
    assert.ok(!shown.some((l) => l.startsWith('other-')), `nothing of the old address: ${shown.join(', ')}`);
    // A node of the old address is no node of the account's any more: a command on it acts nowhere.
    const old = oldNodes[0];
    assert.ok(old && 'order' in old && !old.current, 'the node speaks for the old address');
    const told = captureMessages();
    try {
      third.clearLog();
      await vscode.commands.executeCommand('hostingAccount.order.start', old);
    } finally {
      told.restore();
    }
    assert.equal(third.requests.filter((r) => r.method === 'POST').length, 0, 'nothing sent for an old node');
    assert.equal(told.shown.length, 1, 'the user is told to pick the server again');
  });

  it('changes nothing when the move is not confirmed', async () => {
    const ctx = accounts().get(SECOND);
    assert.ok(ctx);
    const answers = [second.url, ''];
    const restoreInput = stubWindow('showInputBox', () => Promise.resolve(answers.shift()));
    const messages = captureMessages({ warning: undefined });
    try {
      await vscode.commands.executeCommand('hostingAccount.account.editAddress', accounts().get(SECOND));
    } finally {
      restoreInput();
      messages.restore();
    }
    assert.equal(messages.shown.length, 1, 'the confirmation was shown');
    assert.equal(accounts().records.find((r) => r.id === SECOND)?.baseUrl, third.url.replace(/\/$/, ''));
    assert.equal(accounts().get(SECOND)?.store, ctx.store);
  });

  it('moves the first account by its setting, after confirming, keeping its key', async () => {
    const answers = [third.url, 'https://www.example.com/'];
    const restoreInput = stubWindow('showInputBox', () => Promise.resolve(answers.shift()));
    const messages = captureMessages({ warning: 'Change Address' });
    try {
      await vscode.commands.executeCommand('hostingAccount.account.editAddress', accounts().get(DEFAULT_ACCOUNT_ID));
    } finally {
      restoreInput();
      messages.restore();
    }
    assert.equal(messages.shown.length, 1);
    const config = vscode.workspace.getConfiguration('hostingAccount');
    assert.equal(config.inspect<string>('baseUrl')?.globalValue, third.url.replace(/\/$/, ''));
    assert.equal(config.inspect<string>('websiteUrl')?.globalValue, 'https://www.example.com');
    assert.equal(await h.keys.get(), h.key);
    h.mock.clearLog();
    await h.store.refresh(['orders'], 'user');
    await waitFor(() => h.store.state === 'ready', 'the first account to load from its new address');
    assert.equal(h.requests().length, 0, 'the old address gets no more requests');
    assert.ok([...h.store.orders.all].every((o) => plain(o.label).startsWith('moved-')));
    await h.setSetting('baseUrl', h.mock.url);
    await h.setSetting('websiteUrl', undefined);
  });

  it('applies a refresh interval change to the added accounts too', async () => {
    const scheduler = accounts().get(SECOND)?.scheduler;
    const ctx = accounts().get(SECOND);
    assert.ok(scheduler && ctx);
    // As if visible and focused: the schedule then says when orders are next due.
    scheduler.setVisibility({ ordersVisible: true, focused: true });
    await ctx.store.refresh(['orders'], 'user');
    for (const seconds of [600, 1_200]) {
      await h.setSetting('refreshInterval', seconds);
      const loaded = ctx.store.ordersInfo.updatedAt ?? ctx.store.ordersInfo.failedAt;
      assert.ok(loaded !== undefined);
      await waitFor(() => scheduler.dueAt('orders') === loaded + seconds * 1000, `orders due ${seconds} s later`);
    }
    await h.setSetting('refreshInterval', 0);
    await waitFor(() => scheduler.dueAt('orders') === undefined, 'no background refresh with 0');
  });

  it('applies a request limit change to the added accounts too (their next client has it)', async () => {
    const ctx = accounts().get(SECOND);
    assert.ok(ctx);
    await ctx.store.refresh(['balance'], 'user');
    assert.equal(ctx.store.rateLimitStatus()?.limit, 100);
    await h.setSetting('maxRequestsPerMinute', 30);
    await ctx.store.refresh(['balance'], 'user');
    assert.equal(ctx.store.rateLimitStatus()?.limit, 30);
  });

  it('follows an account removed in another window: its store is freed, its late answers never show, its journal is deleted', async () => {
    const ctx = accounts().get(SECOND);
    assert.ok(ctx);
    const journal = ctx.history.file;
    assert.ok(journal);
    ctx.history.append([{ at: Date.now(), id: 'moved-1', kind: 'appeared' }]);
    await ctx.history.read();
    assert.ok(fs.existsSync(journal), 'a journal to delete');
    third.faults.add({ kind: 'delay', delayMs: 1_500, path: '/api/v1/orders' });
    const late = ctx.store.refresh(['orders'], 'user').catch(() => undefined);
    await waitFor(() => ctx.store.ordersInfo.loading, 'the slow refresh to start');
    await writeAsOtherWindow((s) => removeAccount(s, SECOND));
    await waitFor(() => accounts().get(SECOND) === undefined, 'the account removed elsewhere to go');
    await waitFor(() => !fs.existsSync(journal), 'its journal to be deleted');
    await late;
    await new Promise((resolve) => setTimeout(resolve, 300));
    third.faults.clear();
    const shown = await allLabels();
    assert.ok(shown.includes('web-frontend-01'), 'back to the one-account tree');
    assert.ok(!shown.some((l) => l.startsWith('moved-') || l.startsWith('other-')), shown.join(', '));
    assert.deepEqual(
      (await vscode.authentication.getAccounts(AUTH_PROVIDER_ID)).map((a) => a.id),
      [DEFAULT_ACCOUNT_ID],
    );
  });
});
