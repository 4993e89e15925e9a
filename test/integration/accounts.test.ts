import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { addAccount, DEFAULT_ACCOUNT_ID, removeAccount } from '../../src/accounts/accountList';
import { type OrdersTreeNode } from '../../src/views/orders/OrdersTree';
import { type MockApi } from '../mock-api/server';
import { extraMock, Harness, stubWindow, waitFor } from './harness';
import { plain } from '../../src/util/serverText';

const SECOND_KEY = 'second-account-key-0123456789';
const SECOND = 'second01';

describe('several accounts side by side', () => {
  let h: Harness;
  /** The second account's server (an extra mock); the first account is on the suite mock, `h.mock`. */
  let second: MockApi;

  const accounts = () => h.api.model;
  const secondCtx = () => accounts().get(SECOND);
  const text = (label: string | vscode.TreeItemLabel | undefined): string =>
    typeof label === 'string' ? label : (label?.label ?? '');
  const labels = (nodes: readonly OrdersTreeNode[]): string[] =>
    nodes.map((n) => text(h.api.orders.getTreeItem(n).label));

  async function addSecond(): Promise<void> {
    await accounts().registry.update((s) => addAccount(s, { id: SECOND, label: 'Client', baseUrl: second.url }));
    const ctx = secondCtx();
    assert.ok(ctx, 'the added account is live');
    await ctx.keys.store(SECOND_KEY);
    await waitFor(() => ctx.store.hasApiKey, 'the second key to be picked up');
    await ctx.store.refresh(['orders', 'balance'], 'user');
    await waitFor(() => ctx.store.state === 'ready', 'the second account to load');
  }

  async function removeSecond(): Promise<void> {
    const ctx = secondCtx();
    await accounts().registry.update((s) => removeAccount(s, SECOND));
    await ctx?.keys.delete();
  }

  before(async () => {
    h = await Harness.start();
    await h.signIn();
    const [running, stopped] = [h.mock.state.getOrder(1001), h.mock.state.getOrder(1003)];
    assert.ok(running && stopped);
    // The same order ids as the first account's, with other names: an answer shown in the wrong account would show.
    second = await extraMock('second account', {
      keys: [SECOND_KEY],
      seed: {
        orders: [
          { ...running, name: 'client-web' },
          { ...stopped, name: 'client-stopped' },
        ],
        balance: { balance: 7, currency: 'USD', credit_limit: 0 },
      },
    });
  });

  after(async () => {
    await removeSecond();
    await second.close();
    await h.setSetting('confirmStopAndRestart', undefined);
    await h.dispose();
  });

  it("makes today's setup the first account, untouched: its setting, its secret, its one-account tree", async () => {
    const [first, ...others] = accounts().records;
    assert.deepEqual(others, []);
    assert.equal(first?.id, DEFAULT_ACCOUNT_ID);
    assert.equal(first?.baseUrl, h.mock.url.replace(/\/$/, ''));
    assert.equal(accounts().get(DEFAULT_ACCOUNT_ID), h.account);
    // No account rows with one account: the orders are the top level, as always.
    assert.ok(labels(await h.api.orders.getChildren()).includes('web-frontend-01'));
  });

  it('shows each account as a row holding its own orders, with its host and balance', async () => {
    await addSecond();
    const rows = await h.api.orders.getChildren();
    assert.equal(rows.length, 2);
    const [firstRow, secondRow] = rows.map((row) => h.api.orders.getTreeItem(row));
    assert.equal(secondRow?.label, 'Client');
    // The host once, in the tooltip; the row's description is its state and balance only.
    const host = new URL(second.url).host;
    assert.ok(!String(secondRow?.description).includes(host), String(secondRow?.description));
    assert.match(String(secondRow?.description), /7/);
    const tooltip = typeof secondRow?.tooltip === 'string' ? secondRow.tooltip : '';
    assert.equal(tooltip.split(host).length - 1, 1, tooltip);
    assert.equal(text(firstRow?.label), new URL(h.mock.url).host);
    const firstOrders = labels(await h.api.orders.getChildren(rows[0]));
    const secondOrders = labels(await h.api.orders.getChildren(rows[1]));
    assert.ok(firstOrders.includes('web-frontend-01'));
    assert.ok(!firstOrders.some((l) => l.startsWith('client-')), 'no second-account order under the first');
    assert.deepEqual(secondOrders.sort(), ['client-stopped', 'client-web']);
    // The same order id in both accounts still makes two distinct tree items.
    const ids = [...(await h.api.orders.getChildren(rows[0])), ...(await h.api.orders.getChildren(rows[1]))].map(
      (n) => h.api.orders.getTreeItem(n).id,
    );
    assert.equal(new Set(ids).size, ids.length);
    for (const node of await h.api.orders.getChildren(rows[1])) assert.equal(h.api.orders.getParent(node), rows[1]);
  });

  it("acts in the account of the node it was invoked on, never on the other account's order of the same id", async () => {
    await h.setSetting('confirmStopAndRestart', false);
    const rows = await h.api.orders.getChildren();
    const node = (await h.api.orders.getChildren(rows[1])).find(
      (n) => h.api.orders.getTreeItem(n).label === 'client-stopped',
    );
    assert.ok(node);
    h.mock.clearLog();
    second.clearLog();
    await vscode.commands.executeCommand('hostingAccount.order.start', node);
    await waitFor(() => second.requests.some((r) => r.method === 'POST'), 'the POST to reach the second account');
    assert.deepEqual(
      second.requests.filter((r) => r.method === 'POST').map((r) => r.rawPath),
      ['/api/v1/orders/1003/action'],
    );
    assert.equal(h.requests().filter((r) => r.method === 'POST').length, 0, 'nothing sent to the first account');
    assert.equal(h.mock.state.getOrder(1003)?.status, 'stopped');
  });

  it('keeps the other account working when one is down or its key is revoked', async () => {
    const ctx = secondCtx();
    assert.ok(ctx);
    // Down: connections refused. Its orders stay, marked stale; the first account's stay too.
    const port = second.port;
    const seed = { orders: second.state.orders, balance: second.state.balance };
    await second.close();
    await ctx.store.refresh(['orders'], 'user').catch(() => undefined);
    await waitFor(() => ctx.store.ordersInfo.error, 'the second account to fail');
    await h.store.refresh(['orders'], 'user');
    assert.equal(h.store.state, 'ready');
    let rows = await h.api.orders.getChildren();
    assert.match(String(h.api.orders.getTreeItem(rows[1]!).description), /stale|unreachable/);
    assert.deepEqual(labels(await h.api.orders.getChildren(rows[1])).sort(), ['client-stopped', 'client-web']);
    assert.ok(labels(await h.api.orders.getChildren(rows[0])).includes('web-frontend-01'));
    second = await extraMock('second account', { keys: [SECOND_KEY], port, seed });
    await ctx.store.refresh(['orders'], 'user');
    await waitFor(() => ctx.store.state === 'ready' && !ctx.store.ordersInfo.error, 'the second account to recover');

    // Revoked: the row says so; the first account still loads.
    second.setKeys(['another-key']);
    await ctx.store.refresh(['orders'], 'user').catch(() => undefined);
    await waitFor(() => ctx.store.state === 'invalidKey', 'the second key to be rejected');
    await h.store.refresh(['orders'], 'user');
    assert.equal(h.store.state, 'ready');
    rows = await h.api.orders.getChildren();
    assert.match(String(h.api.orders.getTreeItem(rows[1]!).description), /key rejected/);
    assert.equal(h.api.orders.getTreeItem(rows[1]!).command?.command, 'hostingAccount.setApiKey');
    assert.ok(labels(await h.api.orders.getChildren(rows[0])).includes('web-frontend-01'));
    second.setKeys(['another-key']);
    await ctx.keys.store('another-key');
    await ctx.store.refresh(['orders'], 'user');
    await waitFor(() => ctx.store.state === 'ready', 'the second account to work with its new key');
  });

  it('from the palette, asks which account, then acts only there', async () => {
    const ctx = secondCtx();
    assert.ok(ctx);
    await ctx.store.refresh(['orders'], 'user');
    second.state.setOrderStatus(1003, 'stopped');
    await ctx.store.refresh(['orders'], 'user');
    const asked: string[][] = [];
    const restore = stubWindow(
      'showQuickPick',
      (items: Array<vscode.QuickPickItem & { account?: { id: string }; order?: { id: string } }>) => {
        asked.push(items.map((i) => i.label));
        // First the account (the second one), then the order (the only stopped one there).
        return Promise.resolve(
          items.find((i) => i.account?.id === SECOND) ?? items.find((i) => i.order?.id === '1003'),
        );
      },
    );
    h.mock.clearLog();
    second.clearLog();
    try {
      await vscode.commands.executeCommand('hostingAccount.order.start');
    } finally {
      restore();
    }
    assert.deepEqual(asked[0], [new URL(h.mock.url).host, 'Client']);
    assert.deepEqual(asked[1], ['$(vm-outline) client-stopped']);
    assert.deepEqual(
      second.requests.filter((r) => r.method === 'POST').map((r) => r.rawPath),
      ['/api/v1/orders/1003/action'],
    );
    assert.equal(h.requests().filter((r) => r.method === 'POST').length, 0, 'nothing sent to the first account');
  });

  /** Runs Add Account (the address box answered `address`), Rename and Edit Address; records every box, cancels the rest. */
  async function accountBoxes(address: string): Promise<vscode.InputBoxOptions[]> {
    const boxes: vscode.InputBoxOptions[] = [];
    const restore = stubWindow('showInputBox', (options: vscode.InputBoxOptions) => {
      boxes.push(options);
      return Promise.resolve(boxes.length === 1 ? address : undefined);
    });
    try {
      await vscode.commands.executeCommand('hostingAccount.account.add');
      await vscode.commands.executeCommand('hostingAccount.account.rename', secondCtx());
      await vscode.commands.executeCommand('hostingAccount.account.editAddress', secondCtx());
    } finally {
      restore();
    }
    return boxes;
  }

  async function problem(box: vscode.InputBoxOptions | undefined, value: string): Promise<string | undefined> {
    assert.ok(box, 'the box was shown');
    const said = await box.validateInput?.(value);
    return typeof said === 'string' || !said ? (said ?? undefined) : said.message;
  }

  it('keeps account names unique on Add and Rename, in any case', async () => {
    const firstName = new URL(h.mock.url).host;
    const [, name, rename] = await accountBoxes('https://third.example');
    assert.equal(name?.value, 'third.example');
    assert.match((await problem(name, 'client')) ?? '', /Another account is called that/);
    assert.match((await problem(name, firstName.toUpperCase())) ?? '', /Another account is called that/);
    assert.equal(await problem(name, 'Third'), undefined);
    assert.match((await problem(rename, ` ${firstName} `)) ?? '', /Another account is called that/);
    assert.equal(await problem(rename, 'CLIENT'), undefined, 'its own name in another case');
    assert.deepEqual(
      accounts().accounts.map((a) => a.name),
      [firstName, 'Client'],
    );
  });

  it('never quotes a key pasted into the address box of Add Account or Edit Account Address', async () => {
    const [address, , , edit] = await accountBoxes('https://third.example');
    for (const box of [address, edit]) {
      for (const key of ['hk_live_0123456789abcdef0123456789abcdef', 'apikey0123456789abcdef0123456789:abcdef']) {
        const said = await problem(box, key);
        assert.ok(said !== undefined && !said.includes(key.slice(0, 12)), said);
      }
    }
  });

  it("names each account in the assistant's tools by name in any case, shows its host, and refuses an ambiguous name", async () => {
    const ctx = secondCtx();
    assert.ok(ctx);
    second.state.setOrderStatus(1003, 'stopped');
    await ctx.store.refresh(['orders'], 'user');
    const tool = h.api.tools.orderAction;
    const input = { orderId: '1003', action: 'start' as const, account: 'client' };
    const message = tool.prepareInvocation({ input }).confirmationMessages?.message;
    const body = typeof message === 'string' ? message : (message?.value ?? '');
    assert.ok(body.includes('**Client**') && body.includes(new URL(second.url).host.replace(/[.:]/g, '\\$&')), body);
    // Two accounts called the same (a list synced from elsewhere): "Client" is neither, and nothing is asked or sent.
    await accounts().registry.update((s) => ({ ...s, defaultLabel: 'Client' }));
    await waitFor(() => h.account.name === 'Client', 'the first account renamed');
    h.mock.clearLog();
    second.clearLog();
    try {
      assert.equal(tool.prepareInvocation({ input: { ...input, account: 'Client' } }).confirmationMessages, undefined);
      await assert.rejects(
        Promise.resolve(tool.invoke({ input: { ...input, account: 'Client' }, toolInvocationToken: undefined })),
        /Several hosting accounts are called "Client"/,
      );
      const listed = await h.api.tools.listOrders.invoke({ input: {}, toolInvocationToken: undefined });
      const answer = JSON.parse((listed.content[0] as vscode.LanguageModelTextPart).value) as {
        accounts: Array<{ account: { name: string; host: string; id: string } }>;
      };
      assert.deepEqual(
        answer.accounts.map((a) => a.account),
        [
          { name: 'Client', host: new URL(h.mock.url).host, id: DEFAULT_ACCOUNT_ID },
          { name: 'Client', host: new URL(second.url).host, id: SECOND },
        ],
      );
    } finally {
      await accounts().registry.update(({ defaultLabel: _, ...rest }) => rest);
    }
    assert.equal(h.requests().filter((r) => r.method === 'POST').length, 0);
    assert.equal(second.requests.filter((r) => r.method === 'POST').length, 0);
  });

  it('drops a late answer of an account removed meanwhile: nothing of it shows anywhere', async () => {
    const ctx = secondCtx();
    assert.ok(ctx);
    second.faults.add({ kind: 'delay', delayMs: 1_500, path: '/api/v1/orders' });
    const late = ctx.store.refresh(['orders'], 'user').catch(() => undefined);
    await waitFor(() => ctx.store.ordersInfo.loading, 'the slow refresh to start');
    await removeSecond();
    await late;
    await new Promise((resolve) => setTimeout(resolve, 300));
    second.faults.clear();
    assert.equal(accounts().get(SECOND), undefined);
    const top = labels(await h.api.orders.getChildren());
    assert.ok(top.includes('web-frontend-01'), 'back to the one-account tree');
    assert.ok(!top.some((l) => l.startsWith('client-')));
    assert.ok(![...h.store.orders.all].some((o) => plain(o.label).startsWith('client-')));
  });
});
