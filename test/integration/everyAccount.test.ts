/**
 * Every account is an account: the same behaviours, run for the first account (`default`, the setting and the old
 * secret) and for an added one, side by side with the other. Each was built separately once, and the added accounts
 * had lost some of them (request log lines, the rate-limit notice, background failure notices, key-read failures,
 * their own host in messages, their own API keys page, the assistant's tools).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { type Account } from '../../src/accounts/Account';
import { addAccount, removeAccount } from '../../src/accounts/accountList';
import { secretNameOf } from '../../src/auth/secretNames';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import { type OrdersTreeNode } from '../../src/views/orders/OrdersTree';
import { type MockApi } from '../mock-api/server';
import { captureMessages, captureOpenExternal, extraMock, Harness, stubWindow, waitFor } from './harness';

const ADDED = 'every001';
const ADDED_KEY = 'every-account-key-0123456789';
const ACTION = 'POST /api/v1/orders/:id/action';

for (const which of ['first', 'added'] as const) {
  describe(`every account alike: the ${which} account`, () => {
    let h: Harness;
    let other: MockApi;
    /** The account under test, its server, and the other account's server (which must hear nothing). */
    let account: Account;
    let mock: MockApi;
    let quiet: MockApi;
    const restores: Array<() => void> = [];

    const text = (label: string | vscode.TreeItemLabel | undefined): string =>
      typeof label === 'string' ? label : (label?.label ?? '');
    const escape = (value: string): string => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const host = (): string => new URL(mock.url).host;
    const requests = (server: MockApi, route?: string) =>
      server.requests.filter((r) => r.rawPath.startsWith('/api/') && (!route || r.route === route));

    /** The account's row in the Orders view (there are two accounts, so the view has a row for each). */
    async function row(): Promise<OrdersTreeNode> {
      const rows = await h.api.orders.getChildren();
      const found = rows.find((node) => text(h.api.orders.getTreeItem(node).label) === account.name);
      assert.ok(found, `the row of ${account.name}`);
      return found;
    }

    before(async () => {
      h = await Harness.start();
      await h.signInWithFreshKey();
      const [running, stopped] = [h.mock.state.getOrder(1001), h.mock.state.getOrder(1003)];
      assert.ok(running && stopped);
      other = await extraMock('added account', {
        keys: [ADDED_KEY],
        seed: {
          orders: [
            { ...running, name: 'client-web' },
            { ...stopped, name: 'client-stopped' },
          ],
          balance: { balance: 7, currency: 'USD', credit_limit: 0 },
        },
      });
      await h.api.model.registry.update((s) => addAccount(s, { id: ADDED, label: 'Client', baseUrl: other.url }));
      const added = await waitFor(() => h.api.model.get(ADDED), 'the added account');
      await added.keys.store(ADDED_KEY);
      await waitFor(() => added.store.hasApiKey, "the added account's key");
      [account, mock, quiet] = which === 'first' ? [h.account, h.mock, other] : [added, other, h.mock];
      for (const each of [h.account, added]) {
        await each.store.refresh(['orders', 'balance'], 'user');
        await waitFor(() => each.store.state === 'ready', `${each.name} to load`);
      }
    });

    afterEach(() => {
      for (const restore of restores.splice(0).reverse()) restore();
      mock.faults.clear();
      quiet.faults.clear();
    });

    after(async () => {
      await h.api.model.registry.update((s) => removeAccount(s, ADDED));
      await h.api.context.secrets.delete(secretNameOf(ADDED));
      await other.close();
      await h.dispose();
    });

    it('logs its requests, each line naming the account', async () => {
      await account.store.refresh(['balance'], 'user');
      const log = await h.logText();
      assert.match(
        log,
        new RegExp(`\\[http\\] \\[${escape(account.name)}\\] GET /api/v1/balance → 200`),
        log.slice(-2_000),
      );
    });

    it("shows the wait for the API's rate limit, named, and Cancel abandons its request", async () => {
      // A short hold (long enough to be shown), waited out at the end so the next test starts with the budget free.
      const reset = Math.floor(Date.now() / 1000) + 5;
      mock.faults.add({
        kind: 'raw',
        path: '/api/v1/balance',
        times: 1,
        status: 200,
        body: '{"balance": 42.5, "currency": "EUR"}',
        headers: {
          'content-type': 'application/json',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(reset),
        },
      });
      await account.store.refresh(['balance'], 'background');
      const shown: string[] = [];
      const titles: Array<string | undefined> = [];
      const cancel = new vscode.EventEmitter<void>();
      let cancelled = false;
      restores.push(
        stubWindow(
          'withProgress',
          (
            options: vscode.ProgressOptions,
            task: (
              progress: vscode.Progress<{ message?: string }>,
              token: vscode.CancellationToken,
            ) => Thenable<unknown>,
          ) => {
            titles.push(options.title);
            const token = {
              get isCancellationRequested() {
                return cancelled;
              },
              onCancellationRequested: cancel.event,
            };
            return task({ report: ({ message }) => message && shown.push(message) }, token);
          },
        ),
      );
      mock.clearLog();
      const refresh = account.store.refresh(['orders'], 'user');
      await waitFor(() => shown.length > 0 || undefined, 'the wait to be shown');
      assert.match(shown[0] ?? '', /^Waiting for the API's rate limit, \d+ s$/);
      assert.equal(titles[0], `Hosting (${account.name})`);
      cancelled = true;
      cancel.fire();
      await refresh;
      cancel.dispose();
      assert.equal(requests(mock).length, 0, 'the cancelled request was never sent');
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, reset * 1000 - Date.now() + 500)));
    });

    it('tells a background failure once, in its own words (its host, its name), sending one request', async () => {
      const messages = captureMessages();
      restores.push(messages.restore);
      mock.faults.add({ kind: 'status', status: 500, path: '/api/v1/orders' });
      mock.clearLog();
      await account.store.refresh(['orders'], 'background');
      await account.store.refresh(['orders'], 'background');
      assert.equal(requests(mock, 'GET /api/v1/orders').length, 2, 'a background read is not retried');
      const told = await waitFor(() => messages.shown.filter((m) => m.level === 'error'), 'the failure to be told');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(told.length, 1, 'one notification per outage');
      assert.match(
        told[0]?.message ?? '',
        new RegExp(`^Account ${escape(account.name)}: ${escape(host())} had a problem \\(HTTP 500\\)`),
      );
      assert.ok(!told[0]?.message.includes(new URL(quiet.url).host), "never the other account's host");
      // Its rows say they are stale, each of them.
      const orders = await h.api.orders.getChildren(await row());
      assert.ok(orders.length > 0);
      for (const node of orders) assert.match(String(h.api.orders.getTreeItem(node).description), /stale$/);
      mock.faults.clear();
      await account.store.refresh(['orders'], 'user');
      for (const node of await h.api.orders.getChildren(await row())) {
        assert.doesNotMatch(String(h.api.orders.getTreeItem(node).description), /stale/);
      }
    });

    it('tells the user when its key cannot be read, and recovers', async () => {
      const secrets = h.api.context.secrets as unknown as Record<string, unknown>;
      const original = secrets.get as (key: string) => Thenable<string | undefined>;
      const name = secretNameOf(account.id);
      const key = await account.keys.get();
      assert.ok(key);
      const messages = captureMessages();
      restores.push(messages.restore);
      secrets.get = (asked: string) =>
        asked === name
          ? Promise.reject(new Error('the keyring is locked'))
          : original.call(h.api.context.secrets, asked);
      try {
        // The key "changes" (another window stores it again): this window reads it, and cannot.
        await h.api.context.secrets.store(name, key);
        const told = await waitFor(
          () => messages.shown.find((m) => m.message.includes('secret storage')),
          'the read failure to be told',
        );
        assert.equal(told.level, 'error');
        assert.match(told.message, new RegExp(`^Account ${escape(account.name)}: `));
        assert.match(told.message, /the keyring is locked/);
      } finally {
        secrets.get = original;
      }
      await h.api.context.secrets.store(name, key);
      await waitFor(() => account.store.hasApiKey, 'the key to be read again');
    });

    it("opens its own provider's API keys page", async () => {
      const opened = await captureOpenExternal(() =>
        vscode.commands.executeCommand('hostingAccount.openApiKeysPage', account),
      );
      assert.equal(opened?.toString(true), `${new URL(mock.url).origin}/client/api-keys`);
      const fromRow = await captureOpenExternal(async () =>
        vscode.commands.executeCommand('hostingAccount.openApiKeysPage', await row()),
      );
      assert.equal(fromRow?.toString(true), opened?.toString(true));
    });

    it("is served by the assistant's tools, named, and their action goes to it alone", async () => {
      const listed = await h.api.tools.listOrders.invoke({
        input: { account: account.name },
        toolInvocationToken: undefined,
      });
      const answer = JSON.parse((listed.content[0] as vscode.LanguageModelTextPart).value) as {
        accounts: Array<{
          account: { id: string; name: string };
          orders: Array<{ id: string; name: string; state: string }>;
        }>;
      };
      assert.equal(answer.accounts.length, 1);
      assert.equal(answer.accounts[0]?.account.id, account.id);
      const stopped = answer.accounts[0]?.orders.find((o) => o.state === 'stopped');
      assert.ok(stopped, 'a stopped order of this account');
      const input = { orderId: stopped.id, action: 'start' as const, account: account.id };
      const prepared = h.api.tools.orderAction.prepareInvocation({ input });
      const message = prepared.confirmationMessages?.message;
      const body = typeof message === 'string' ? message : (message?.value ?? '');
      assert.ok(
        body.includes(account.name.replace(/[.:]/g, (c) => `\\${c}`)),
        `the confirmation names the account: ${body}`,
      );
      mock.clearLog();
      quiet.clearLog();
      await h.api.tools.orderAction.invoke({ input, toolInvocationToken: undefined });
      assert.deepEqual(
        requests(mock, ACTION).map((r) => r.rawPath),
        [`/api/v1/orders/${stopped.id}/action`],
      );
      assert.equal(requests(quiet, ACTION).length, 0, 'nothing to the other account');
      await waitFor(() => !account.store.pending(stopped.id), 'the start to settle', 10_000);
      // Its own history has it, from the assistant.
      const history = (await account.history.read()).filter((e) => e.id === stopped.id).slice(-2);
      assert.deepEqual(
        history.map((e) => [e.kind, e.action, e.source]),
        [
          ['sent', 'start', 'assistant'],
          ['settled', 'start', 'assistant'],
        ],
      );
    });

    it('refuses an action confirmed for a server renamed, or gone, before it runs: nothing is sent', async () => {
      await account.store.refresh(['orders'], 'user');
      const target = account.store.orders.all.find((o) => o.state === 'running');
      assert.ok(target);
      const input = { orderId: target.id, action: 'stop' as const, account: account.id };
      h.api.tools.orderAction.prepareInvocation({ input });
      // The server's name changes after the user confirmed (or its id now names another server).
      const record = mock.state.getOrder(target.id);
      assert.ok(record);
      const name = record.name;
      record.name = 'renamed-meanwhile';
      await account.store.refresh(['orders'], 'user');
      mock.clearLog();
      try {
        await assert.rejects(
          Promise.resolve(h.api.tools.orderAction.invoke({ input, toolInvocationToken: undefined })),
          /is now called renamed-meanwhile.*nothing was sent/,
        );
      } finally {
        record.name = name;
      }
      await account.store.refresh(['orders'], 'user');
      h.api.tools.orderAction.prepareInvocation({ input });
      mock.state.orders = mock.state.orders.filter((o) => String(o.id) !== target.id);
      await account.store.refresh(['orders'], 'user');
      await assert.rejects(
        Promise.resolve(h.api.tools.orderAction.invoke({ input, toolInvocationToken: undefined })),
        /no longer in the account; nothing was sent/,
      );
      assert.equal(requests(mock, ACTION).length, 0, 'no POST');
      mock.state.reset();
      await account.store.refresh(['orders'], 'user');
    });

    it('keeps its own protected and pinned servers: the same order id in the other account is not touched', async () => {
      await account.store.refresh(['orders'], 'user');
      const nodes = (await h.api.orders.getChildren(await row())).filter((n): n is OrderNode => 'order' in n);
      const running = nodes.find((n) => n.order.state === 'running');
      const stopped = nodes.find((n) => n.order.state === 'stopped');
      assert.ok(running && stopped);
      const otherAccount = h.api.model.accounts.find((each) => each !== account);
      mock.clearLog();
      try {
        await vscode.commands.executeCommand('hostingAccount.order.protect', running);
        await vscode.commands.executeCommand('hostingAccount.order.pin', stopped);
        assert.equal(account.marks.isProtected(running.id), true);
        assert.equal(otherAccount?.store.orders.get(running.id)?.id, running.id, 'the other account has this id too');
        assert.equal(otherAccount?.marks.isProtected(running.id), false);
        const shown = (await h.api.orders.getChildren(await row())).filter((n): n is OrderNode => 'order' in n);
        assert.equal(shown[0]?.id, stopped.id, 'pinned first in its account');
        assert.equal(
          (h.api.orders.getTreeItem(shown.find((n) => n.id === running.id)!).iconPath as vscode.ThemeIcon).id,
          'lock',
        );
        const input = { orderId: running.id, action: 'stop' as const, account: account.id };
        h.api.tools.orderAction.prepareInvocation({ input });
        await assert.rejects(
          Promise.resolve(h.api.tools.orderAction.invoke({ input, toolInvocationToken: undefined })),
          /is protected/,
        );
        assert.equal(requests(mock, ACTION).length, 0);
      } finally {
        await account.marks.set(running.id, { protected: false });
        await account.marks.set(stopped.id, { pinned: false });
      }
    });

    it('is renamed from its row, and its address edited there, in this account only', async () => {
      const before = account.name;
      restores.push(stubWindow('showInputBox', () => Promise.resolve('Renamed account')));
      await vscode.commands.executeCommand('hostingAccount.account.rename', await row());
      await waitFor(() => account.name === 'Renamed account', 'the new name');
      restores.pop()?.();
      const others = h.api.model.accounts.filter((a) => a !== account).map((a) => a.name);
      assert.ok(!others.includes('Renamed account'));
      restores.push(stubWindow('showInputBox', () => Promise.resolve(before)));
      await vscode.commands.executeCommand('hostingAccount.account.rename', await row());
      await waitFor(() => account.name === before, 'the name back');
      restores.pop()?.();
      // Edit Address keeps the address when it is given again: nothing is asked, nothing moves.
      const answers = [mock.url, ''];
      const messages = captureMessages();
      restores.push(messages.restore);
      restores.push(stubWindow('showInputBox', () => Promise.resolve(answers.shift())));
      const generation = account.store.generation;
      await vscode.commands.executeCommand('hostingAccount.account.editAddress', await row());
      assert.equal(messages.shown.length, 0, 'no confirmation when the address stays');
      assert.equal(account.store.generation, generation, 'nothing started over');
    });

    it(which === 'first' ? 'is kept when removed: only its key can go' : 'is removed with its key', async () => {
      const messages = captureMessages({ warning: 'Remove' });
      restores.push(messages.restore);
      const journal = account.history.file;
      assert.ok(journal && fs.existsSync(journal), 'it kept a history');
      await vscode.commands.executeCommand('hostingAccount.account.remove', await row());
      if (which === 'first') {
        assert.ok(h.api.model.get(account.id), 'the first account stays');
        assert.match(messages.shown[0]?.message ?? '', /hostingAccount\.baseUrl setting/);
        return;
      }
      await waitFor(() => !h.api.model.get(account.id), 'the account to go');
      assert.equal(await h.api.context.secrets.get(secretNameOf(account.id)), undefined, 'its key went with it');
      assert.ok(journal && !fs.existsSync(journal), 'its history went with it');
    });
  });
}
