import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { ACCOUNTS_STATE_KEY, addAccount, removeAccount } from '../../src/accounts/accountList';
import { type InvoicesTreeNode } from '../../src/views/invoices/InvoicesTree';
import { type OrdersTreeNode } from '../../src/views/orders/OrdersTree';
import { type MockApi } from '../mock-api/server';
import { captureNotices, clickStep, extraMock, fakeInputBox, Harness, stubWindow, waitFor } from './harness';

const CLIENT_KEY = 'client-account-key-0123456789';
const CLIENT = 'views02';

/** The views with two accounts: status bar, Invoices, account-row menus, filter, badges and outside changes. */
describe('several accounts in the views, the status bar and the features', () => {
  let h: Harness;
  let client: MockApi;
  const restores: Array<() => void> = [];

  const accounts = () => h.api.model;
  const clientCtx = () => accounts().get(CLIENT);
  const text = (label: string | vscode.TreeItemLabel | undefined): string =>
    typeof label === 'string' ? label : (label?.label ?? '');
  const orderLabels = (nodes: readonly OrdersTreeNode[]): string[] =>
    nodes.map((n) => text(h.api.orders.getTreeItem(n).label));
  const invoiceLabels = (nodes: readonly InvoicesTreeNode[]): string[] =>
    nodes.map((n) => text(h.api.invoices.getTreeItem(n).label));
  const statusText = (): string => h.api.statusBar.item.text;
  /** The tooltip's lines, unescaped (it is Markdown). */
  const tooltipLines = (): string[] =>
    (h.api.statusBar.item.tooltip as vscode.MarkdownString).value.split('  \n').map((l) => l.replace(/\\(.)/g, '$1'));
  const firstHost = (): string => new URL(h.mock.url).host;

  async function orderRows(): Promise<OrdersTreeNode[]> {
    const rows = await h.api.orders.getChildren();
    assert.equal(rows.length, 2, 'one row per account');
    return rows;
  }

  async function orderOf(row: OrdersTreeNode, label: string): Promise<OrdersTreeNode> {
    const node = (await h.api.orders.getChildren(row)).find((n) => text(h.api.orders.getTreeItem(n).label) === label);
    assert.ok(node, label);
    return node;
  }

  before(async () => {
    h = await Harness.start();
    await h.signIn();
    const [running, stopped, suspended] = [1001, 1003, 1005].map((id) => h.mock.state.getOrder(id));
    assert.ok(running && stopped && suspended);
    // The same order and invoice ids as the first account's, with other names: a mix-up would show.
    client = await extraMock('second account', {
      keys: [CLIENT_KEY],
      seed: {
        orders: [
          { ...running, name: 'client-web' },
          { ...stopped, name: 'client-stopped' },
          { ...suspended, name: 'client-held' },
        ],
        balance: { balance: 7, currency: 'USD', credit_limit: 0 },
        invoices: [
          {
            id: 41,
            number: 'CL-0041',
            date: '2026-01-01',
            due_date: '2026-01-15',
            amount: 20,
            currency: 'USD',
            status: 'paid',
          },
          {
            id: 42,
            number: 'CL-0042',
            date: '2026-02-01',
            due_date: '2026-02-15',
            amount: 20,
            currency: 'USD',
            status: 'unpaid',
          },
        ],
      },
    });
    await accounts().registry.update((s) => addAccount(s, { id: CLIENT, label: 'Client', baseUrl: client.url }));
    const ctx = clientCtx();
    assert.ok(ctx, 'the added account is live');
    await ctx.keys.store(CLIENT_KEY);
    await waitFor(() => ctx.store.hasApiKey, 'the client key to be picked up');
    await ctx.store.refresh(['orders', 'balance', 'invoices'], 'user');
    await h.store.refresh(['orders', 'balance', 'invoices'], 'user');
    await waitFor(() => ctx.store.state === 'ready' && h.store.state === 'ready', 'both accounts to load');
  });

  afterEach(() => {
    for (const restore of restores.splice(0).reverse()) restore();
  });

  after(async () => {
    for (const restore of restores.splice(0).reverse()) restore();
    await vscode.commands.executeCommand('hostingAccount.orders.filter', 'all');
    const ctx = clientCtx();
    await accounts().registry.update((s) => removeAccount(s, CLIENT));
    await ctx?.keys.delete();
    await client.close();
    await h.dispose();
  });

  it('shows the balance of the selected account in the status bar, and every account in its tooltip', async () => {
    const [firstRow, clientRow] = await orderRows();
    await h.api.ordersView.reveal(await orderOf(clientRow!, 'client-web'), { select: true, focus: false });
    await waitFor(() => statusText().includes('Client'), 'the status bar to follow the selection');
    assert.match(statusText(), /^\$\(credit-card\) \$7\.00 · Client$/);
    const lines = tooltipLines();
    assert.ok(lines.includes(`$(account) Client (${new URL(client.url).host}): $7.00`), lines.join('\n'));
    assert.ok(lines.includes(`$(account) ${firstHost()}: €42.50`), lines.join('\n'));
    assert.equal(lines[0], '**Client**', "the balance above is the selected account's");
    // An account row selects its account too.
    await h.api.ordersView.reveal(firstRow!, { select: true, focus: false });
    await waitFor(() => statusText().includes('42.50'), 'the first account again');
    assert.equal(statusText(), `$(credit-card) €42.50 · ${firstHost()}`);
  });

  it("never shows one account's balance under the other's name while answers are in flight", async () => {
    const ctx = clientCtx();
    assert.ok(ctx);
    const [firstRow, clientRow] = await orderRows();
    const seen = new Set<string>();
    const sampler = setInterval(() => seen.add(statusText()), 5);
    try {
      client.state.balance = { ...client.state.balance, balance: 8 };
      h.mock.state.balance = { ...h.mock.state.balance, balance: 43.5 };
      client.faults.add({ kind: 'delay', delayMs: 800, path: '/api/v1/balance' });
      h.mock.faults.add({ kind: 'delay', delayMs: 1_200, path: '/api/v1/balance' });
      const answers = Promise.all([ctx.store.refresh(['balance'], 'user'), h.store.refresh(['balance'], 'user')]);
      // Switch back and forth while both answers are on their way.
      await h.api.ordersView.reveal(await orderOf(clientRow!, 'client-stopped'), { select: true, focus: false });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await h.api.ordersView.reveal(await orderOf(firstRow!, 'web-frontend-01'), { select: true, focus: false });
      await answers;
      await waitFor(() => statusText().includes('43.50'), 'the first balance under its own name');
      await h.api.ordersView.reveal(await orderOf(clientRow!, 'client-web'), { select: true, focus: false });
      await waitFor(() => statusText().includes('8.00'), 'the client balance under its own name');
      seen.add(statusText());
    } finally {
      clearInterval(sampler);
      client.faults.clear();
      h.mock.faults.clear();
    }
    assert.ok(seen.size > 1, 'the sampler saw the switches');
    for (const shown of seen) {
      if (shown.includes('€')) assert.ok(shown.endsWith(` · ${firstHost()}`), shown);
      if (shown.includes('$7') || shown.includes('$8')) assert.ok(shown.endsWith(' · Client'), shown);
    }
  });

  it('shows each account as a row in the Invoices view, and one account down never blanks the other', async () => {
    const rows = h.api.invoices.getChildren();
    assert.equal(rows.length, 2);
    assert.equal(text(h.api.invoices.getTreeItem(rows[1]!).label), 'Client');
    assert.deepEqual(invoiceLabels(h.api.invoices.getChildren(rows[1])).sort(), ['CL-0041', 'CL-0042']);
    const first = invoiceLabels(h.api.invoices.getChildren(rows[0]));
    assert.ok(first.includes('INV-2026-0042'), first.join());
    assert.ok(!first.some((l) => l.startsWith('CL-')));
    const ids = [...h.api.invoices.getChildren(rows[0]), ...h.api.invoices.getChildren(rows[1])].map(
      (n) => h.api.invoices.getTreeItem(n).id,
    );
    assert.equal(new Set(ids).size, ids.length, 'the same invoice id in two accounts makes two items');

    const ctx = clientCtx();
    assert.ok(ctx);
    const port = client.port;
    const seed = { orders: client.state.orders, balance: client.state.balance, invoices: client.state.invoices };
    await client.close();
    try {
      await ctx.store.refresh(['invoices'], 'user').catch(() => undefined);
      await waitFor(() => ctx.store.invoices.error, 'the client invoices to fail');
      await h.store.refresh(['invoices'], 'user');
      const after = h.api.invoices.getChildren();
      assert.match(String(h.api.invoices.getTreeItem(after[1]!).description), /stale|unreachable/);
      assert.doesNotMatch(String(h.api.invoices.getTreeItem(after[0]!).description), /stale|unreachable/);
      assert.ok(invoiceLabels(h.api.invoices.getChildren(after[0])).includes('INV-2026-0042'));
      // The one line above the view names the account that failed, and says nothing of the one that did not.
      const said = await waitFor(() => h.api.invoicesView.message, 'the Invoices view to say what failed');
      assert.match(said, /^Client: Showing data from .+ The last refresh failed: /);
      assert.doesNotMatch(said, new RegExp(firstHost().replace(/\./g, '\\.')));
      await ctx.store.refresh(['orders'], 'user').catch(() => undefined);
      const ordersSaid = await waitFor(() => h.api.ordersView.message, 'the Orders view to say what failed');
      assert.match(ordersSaid, /^Client: /);
    } finally {
      client = await extraMock('second account, back up', { keys: [CLIENT_KEY], port, seed });
    }
    await ctx.store.refresh(['orders', 'balance', 'invoices'], 'user');
    await waitFor(() => ctx.store.state === 'ready' && !ctx.store.invoices.error, 'the client account to recover');
  });

  it("reads an added account's invoices by itself while the Invoices view is visible", async () => {
    await vscode.commands.executeCommand('hostingAccount.invoices.focus');
    await waitFor(() => h.api.invoicesView.visible, 'the Invoices view to show');
    // Removed and added again: a new account that has never read its invoices (its key is still on this machine).
    await accounts().registry.update((s) => removeAccount(s, CLIENT));
    client.clearLog();
    client.state.invoices.push({
      id: 43,
      number: 'CL-0043',
      date: '2026-03-01',
      due_date: '2026-03-15',
      amount: 20,
      currency: 'USD',
      status: 'unpaid',
    });
    await accounts().registry.update((s) => addAccount(s, { id: CLIENT, label: 'Client', baseUrl: client.url }));
    // Nothing asked for them: the added account's schedule reads them because the Invoices view is visible.
    await waitFor(
      () => client.requests.some((r) => r.route === 'GET /api/v1/invoices'),
      'the client invoices to be read',
    );
    await waitFor(
      () => invoiceLabels(h.api.invoices.getChildren(h.api.invoices.getChildren()[1])).includes('CL-0043'),
      'the new invoice under the client row',
    );
    await waitFor(() => clientCtx()?.store.state === 'ready', 'the client account to be ready');
    await vscode.commands.executeCommand('hostingAccount.orders.focus');
  });

  it('runs the account-row menu commands in the account of the row', async () => {
    const ctx = clientCtx();
    assert.ok(ctx);
    const [, clientRow] = await orderRows();
    const clientItem = h.api.orders.getTreeItem(clientRow!);
    assert.match(String(clientItem.contextValue), /^hostingAccount\.account\.ready\.added$/);
    const [firstRow] = await orderRows();
    assert.equal(h.api.orders.getTreeItem(firstRow!).contextValue, 'hostingAccount.account.ready');

    // Refresh: what is not fresh is read again, from this account only.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    h.mock.clearLog();
    client.clearLog();
    await vscode.commands.executeCommand('hostingAccount.refresh', clientRow);
    assert.ok(
      client.requests.some((r) => r.route === 'GET /api/v1/orders'),
      'the client account was refreshed',
    );
    assert.equal(h.requests().length, 0, 'nothing asked of the first account');

    // Rename, from the row in the Invoices view: no account is asked for.
    const picks: unknown[] = [];
    restores.push(stubWindow('showQuickPick', (items: unknown) => (picks.push(items), Promise.resolve(undefined))));
    restores.push(stubWindow('showInputBox', () => Promise.resolve('Client B')));
    await vscode.commands.executeCommand('hostingAccount.account.rename', h.api.invoices.getChildren()[1]);
    assert.deepEqual(picks, []);
    assert.deepEqual(
      accounts().records.map((r) => r.label),
      [firstHost(), 'Client B'],
    );
    await waitFor(() => statusText().endsWith('Client B') || !statusText().includes('Client'), 'the new name');

    // Set API Key: checked with the client's /me, kept under the client's own secret.
    client.setKeys([CLIENT_KEY, 'client-second-key-0123456789']);
    const firstKey = await h.keys.get();
    const input = fakeInputBox(['client-second-key-0123456789']);
    restores.push(input.restore);
    await vscode.commands.executeCommand('hostingAccount.setApiKey', clientRow);
    assert.equal(await ctx.keys.get(), 'client-second-key-0123456789');
    assert.equal(await h.keys.get(), firstKey, "the first account's key is untouched");
    // A new key starts the account afresh: loaded again before the next test.
    await waitFor(() => ctx.store.state !== 'noKey', 'the new key to be picked up');
    await ctx.store.refresh(['orders', 'balance'], 'user');
    await waitFor(() => ctx.store.state === 'ready', 'the client account to load with its new key');
    await accounts().registry.update((s) => ({
      ...s,
      accounts: s.accounts.map((a) => (a.id === CLIENT ? { ...a, label: 'Client' } : a)),
    }));
  });

  it("filters and sorts every account's orders, counting them all in the description", async () => {
    try {
      await vscode.commands.executeCommand('hostingAccount.orders.filter', 'stopped');
      const [firstRow, clientRow] = await orderRows();
      const firstStopped = orderLabels(await h.api.orders.getChildren(firstRow));
      const clientStopped = orderLabels(await h.api.orders.getChildren(clientRow));
      assert.deepEqual(clientStopped, ['client-stopped']);
      const expected = h.mock.state.orders.filter((o) => o.status === 'stopped').map((o) => o.name);
      assert.deepEqual(firstStopped.sort(), expected.sort());
      const total = h.mock.state.orders.length + 3;
      await waitFor(
        () => h.api.ordersView.description === `stopped: ${expected.length + 1} of ${total}`,
        'the description to count both accounts',
      );
      await vscode.commands.executeCommand('hostingAccount.orders.filter', 'all');
      await vscode.commands.executeCommand('hostingAccount.orders.sort', 'name');
      assert.deepEqual(orderLabels(await h.api.orders.getChildren(clientRow)), [
        'client-held',
        'client-stopped',
        'client-web',
      ]);
    } finally {
      await vscode.commands.executeCommand('hostingAccount.orders.filter', 'all');
      await vscode.commands.executeCommand('hostingAccount.orders.sort', 'server');
    }
  });

  it('counts the badges over both accounts', async () => {
    const ctx = clientCtx();
    assert.ok(ctx);
    await Promise.all([h.store.refresh(['invoices'], 'user'), ctx.store.refresh(['invoices'], 'user')]);
    const suspended = h.mock.state.orders.filter((o) => o.status === 'suspended').length;
    const unpaid = h.mock.state.invoices.filter((i) => i.status === 'unpaid' || i.status === 'overdue').length;
    const clientUnpaid = client.state.invoices.filter((i) => i.status === 'unpaid').length;
    await waitFor(() => h.api.ordersView.badge?.value === suspended + 1, 'the orders badge to count both accounts');
    await waitFor(
      () => h.api.invoicesView.badge?.value === unpaid + clientUnpaid,
      'the invoices badge to count both accounts',
    );
  });

  it('tells an outside change in the added account, naming it, and Start acts there', async () => {
    const ctx = clientCtx();
    assert.ok(ctx);
    await ctx.store.refresh(['orders'], 'user');
    client.state.setOrderStatus(1001, 'stopped');
    const notices = captureNotices();
    restores.push(notices.restore);
    h.mock.clearLog();
    client.clearLog();
    await ctx.store.refresh(['orders'], 'user');
    const told = await waitFor(
      () => notices.shown.find((m) => m.message.includes('client-web')),
      'the outside change to be told',
    );
    assert.equal(told.message, 'Account Client: client-web stopped, and not by an action from this window.');
    clickStep(told, 'Start');
    await waitFor(() => client.requests.some((r) => r.method === 'POST'), 'the Start to reach the client account');
    assert.deepEqual(
      client.requests.filter((r) => r.method === 'POST').map((r) => r.rawPath),
      ['/api/v1/orders/1001/action'],
    );
    assert.equal(h.requests().filter((r) => r.method === 'POST').length, 0, 'nothing started in the first account');
    await waitFor(() => !ctx.store.pending('1001'), 'the start to settle', 10_000);
  });

  it('an account removed in another window or by Settings Sync leaves no journal, and its notices act nowhere', async () => {
    const ctx = clientCtx();
    assert.ok(ctx);
    const notices = captureNotices();
    restores.push(notices.restore);
    await ctx.store.refresh(['orders'], 'user');
    client.state.setOrderStatus(1005, 'stopped');
    await ctx.store.refresh(['orders'], 'user');
    const told = await waitFor(
      () => notices.shown.find((m) => m.message.includes('client-held')),
      "the client account's notice",
    );
    const file = ctx.history.file;
    assert.ok(file);
    await waitFor(() => fs.existsSync(file), 'its journal');
    await h.store.refresh(['orders'], 'user');
    h.mock.state.setOrderStatus(1001, 'stopped');
    await h.store.refresh(['orders'], 'user');
    const first = await waitFor(
      () => notices.shown.find((m) => m.message.includes('web-frontend-01')),
      "the first account's notice",
    );
    // As another window's removal or Settings Sync arrives: the list changes under this window.
    const { globalState } = h.api.context;
    await globalState.update(ACCOUNTS_STATE_KEY, removeAccount(accounts().registry.stored, CLIENT));
    accounts().registry.reread();
    await waitFor(() => !clientCtx(), 'the account to go');
    await waitFor(() => !fs.existsSync(file), 'its journal to be deleted');
    client.clearLog();
    h.mock.clearLog();
    clickStep(told, 'Start');
    clickStep(first, 'Start');
    await waitFor(() => h.requests('POST /api/v1/orders/:id/action').length === 1, "the first account's Start");
    assert.equal(client.requests.filter((r) => r.method === 'POST').length, 0, 'nothing sent to the removed account');
    await waitFor(() => !h.store.pending('1001'), 'the start to settle', 10_000);
    await ctx.keys.delete();
  });
});
