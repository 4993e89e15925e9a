import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import { orderRecord } from '../mock-api/data';
import { type OrderRecord } from '../mock-api/types';
import { captureMessages, captureNotices, clickStep, Harness, stubWindow, waitFor } from './harness';
import { plain } from '../../src/util/serverText';

const ACTION = 'POST /api/v1/orders/:id/action';

describe('filter, several orders at once, outside changes and the assistant', () => {
  let h: Harness;
  const restores: Array<() => void> = [];

  before(async () => {
    h = await Harness.start({ transitionMs: 200 });
    await h.signIn();
  });
  after(async () => {
    await vscode.commands.executeCommand('hostingAccount.orders.filter', 'all');
    await vscode.commands.executeCommand('hostingAccount.orders.sort', 'server');
    await h.dispose();
  });
  beforeEach(async () => {
    h.mock.state.reset();
    await h.signInWithFreshKey();
    await vscode.commands.executeCommand('hostingAccount.orders.filter', 'all');
    await vscode.commands.executeCommand('hostingAccount.orders.sort', 'server');
    h.mock.clearLog();
  });
  afterEach(() => {
    for (const restore of restores.splice(0).reverse()) restore();
  });

  const roots = async (): Promise<OrderNode[]> => (await h.api.orders.getChildren()) as OrderNode[];
  const nodesOf = async (status: string): Promise<OrderNode[]> => {
    const ids = new Set(h.mock.state.orders.filter((o) => o.status === status).map((o) => String(o.id)));
    return (await roots()).filter((n) => ids.has(n.id));
  };

  describe('filter and sort', () => {
    it('filters by state, says so in the description, and sorts by name and back', async () => {
      await vscode.commands.executeCommand('hostingAccount.orders.filter', 'running');
      const running = await roots();
      assert.deepEqual(
        running.map((n) => n.order.state),
        ['running', 'running'],
      );
      assert.equal(h.api.ordersView.description, `running: 2 of ${h.mock.state.orders.length}`);
      await vscode.commands.executeCommand('hostingAccount.orders.filter', 'all');
      await vscode.commands.executeCommand('hostingAccount.orders.sort', 'name');
      const names = (await roots()).map((n) => plain(n.order.label));
      assert.deepEqual(
        names,
        [...names].sort((a, b) => a.localeCompare(b)),
      );
      assert.equal(h.api.ordersView.description, 'by name');
      await vscode.commands.executeCommand('hostingAccount.orders.sort', 'server');
      assert.deepEqual(
        (await roots()).map((n) => n.id),
        h.mock.state.orders.map((o) => String(o.id)),
      );
      assert.equal(h.api.ordersView.description, undefined);
    });

    it('asks with a quick pick when run from the view title, marking the current choice', async () => {
      let offered: readonly vscode.QuickPickItem[] = [];
      restores.push(
        stubWindow('showQuickPick', (items: vscode.QuickPickItem[]) => {
          offered = items;
          return Promise.resolve(items.find((i) => i.label === 'Stopped'));
        }),
      );
      await vscode.commands.executeCommand('hostingAccount.orders.filter');
      assert.deepEqual(
        offered.map((i) => i.label),
        ['All servers', 'Running', 'Stopped', 'Busy (an action under way)', 'Other (suspended or unknown)'],
      );
      assert.equal(offered.find((i) => i.picked)?.label, 'All servers');
      assert.deepEqual(
        (await roots()).map((n) => n.order.state),
        ['stopped', 'stopped'],
      );
      assert.equal(h.api.arrangement.arrangement.filter, 'stopped', 'remembered');
    });

    it('moves an order out of a filtered view when its state changes, and says when nothing matches', async () => {
      await vscode.commands.executeCommand('hostingAccount.orders.filter', 'stopped');
      assert.equal((await roots()).length, 2);
      for (const o of h.mock.state.orders.filter((r) => r.status === 'stopped')) {
        h.mock.state.setOrderStatus(o.id, 'running');
      }
      await h.store.refresh(['orders'], 'user');
      assert.equal((await roots()).length, 0);
      assert.equal(h.api.ordersView.description, `stopped: 0 of ${h.mock.state.orders.length}`);
    });

    it('shows badges: orders needing attention, unpaid invoices', async () => {
      await h.store.refresh(['invoices'], 'user');
      await waitFor(() => h.api.invoicesView.badge?.value === 2, 'the invoices badge (one unpaid, one overdue)');
      assert.equal(h.api.ordersView.badge?.value, 1, 'the suspended order');
    });
  });

  describe('several orders at once', () => {
    function answerWarning(
      answer: (title: string) => string | undefined,
    ): Array<{ message: string; options: unknown[] }> {
      const asked: Array<{ message: string; options: unknown[] }> = [];
      restores.push(
        stubWindow('showWarningMessage', (message: string, ...options: unknown[]) => {
          asked.push({ message, options });
          return Promise.resolve(answer(String(options[1])));
        }),
      );
      return asked;
    }

    it('stops the selection after one confirmation naming them, one POST each, leaving out what does not fit', async () => {
      const running = await nodesOf('running');
      const stopped = await nodesOf('stopped');
      const selection = [...running, stopped[0]!];
      const infos = captureMessages({ warning: 'Stop 2 Servers' });
      restores.push(infos.restore);
      await vscode.commands.executeCommand('hostingAccount.order.stop', running[0], selection);
      const asked = infos.shown.filter((m) => m.level === 'warning');
      assert.equal(asked.length, 1, 'one confirmation');
      assert.equal(asked[0]?.message, 'Stop 2 servers?');
      const detail = String((asked[0]?.options[0] as vscode.MessageOptions).detail);
      for (const node of running) assert.ok(detail.includes(plain(node.order.label)), detail);
      assert.match(detail, new RegExp(`Left out, not in a state that allows it: ${plain(stopped[0]!.order.label)}`));
      assert.equal(h.requests(ACTION).length, 2);
      assert.deepEqual(
        h.requests(ACTION).map((r) => r.body),
        ['{"action":"stop"}', '{"action":"stop"}'],
      );
      for (const node of running) {
        assert.ok(h.store.pending(node.id) || h.store.orders.get(node.id)?.state === 'stopped');
      }
      assert.ok(
        infos.shown.some((m) => m.level === 'info' && m.message.includes('Left out')),
        'the user is told what was left out',
      );
      await waitFor(() => running.every((n) => !h.store.pending(n.id)), 'both to settle', 10_000);
      // Settled by one list read for both: still the user's own action, never told as a change made elsewhere.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      assert.deepEqual(
        infos.shown.filter((m) => /this window/.test(m.message)),
        [],
      );
    });

    it('sends nothing when the confirmation is dismissed', async () => {
      const running = await nodesOf('running');
      answerWarning(() => undefined);
      await vscode.commands.executeCommand('hostingAccount.order.restart', running[0], running);
      assert.equal(h.requests(ACTION).length, 0);
    });

    it('acts on the clicked order alone when it is not part of the selection', async () => {
      const running = await nodesOf('running');
      const stopped = await nodesOf('stopped');
      const asked = answerWarning(() => undefined);
      await vscode.commands.executeCommand('hostingAccount.order.start', stopped[0], running);
      assert.equal(asked.length, 0, 'a single start does not ask');
      assert.equal(h.requests(ACTION).length, 1);
      assert.equal(h.requests(ACTION)[0]?.orderId, stopped[0]!.id);
      await waitFor(() => !h.store.pending(stopped[0]!.id), 'the start to settle', 10_000);
    });

    it('refuses Reinstall on several orders, and an action that fits none of them', async () => {
      const running = await nodesOf('running');
      const infos = captureMessages();
      restores.push(infos.restore);
      await vscode.commands.executeCommand('hostingAccount.order.reinstall', running[0], running);
      await vscode.commands.executeCommand('hostingAccount.order.start', running[0], running);
      assert.equal(h.requests(ACTION).length, 0);
      assert.match(infos.shown[0]?.message ?? '', /one server at a time/);
      assert.match(infos.shown[1]?.message ?? '', /None of the selected servers can be started now/);
    });
  });

  describe('changes made outside this window', () => {
    const notices = () => {
      const captured = captureNotices();
      restores.push(captured.restore);
      return captured.shown;
    };

    it('tells one outside stop exactly once, with Show, Start and Show History', async () => {
      const shown = notices();
      const target = (await nodesOf('running'))[0]!;
      const res = await fetch(`${h.mock.url}/__mock/orders/state`, {
        method: 'POST',
        body: JSON.stringify({ id: target.id, status: 'stopped' }),
      });
      assert.equal(res.status, 200);
      await h.store.refresh(['orders'], 'user');
      await waitFor(() => shown.length > 0, 'the notice', 5_000);
      await h.store.refresh(['orders'], 'user');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      assert.equal(shown.length, 1);
      assert.equal(shown[0]?.message, `${plain(target.order.label)} stopped, and not by an action from this window.`);
      assert.deepEqual(shown[0]?.buttons, ['Show', 'Start', 'Show History']);
      assert.equal(h.api.ordersView.badge?.value, 2, 'the suspended order and the one stopped outside');
    });

    it('shows the order on Show, clearing a filter that hides it', async () => {
      const shown = notices();
      await vscode.commands.executeCommand('hostingAccount.orders.filter', 'running');
      const target = (await nodesOf('running'))[0]!;
      h.mock.state.setOrderStatus(target.id, 'stopped');
      await h.store.refresh(['orders'], 'user');
      const notice = await waitFor(() => shown[0], 'the notice', 5_000);
      clickStep(notice, 'Show');
      await waitFor(() => h.api.arrangement.arrangement.filter === 'all', 'the filter to be cleared');
      await waitFor(
        () => h.api.ordersView.selection.some((n) => (n as OrderNode).id === target.id),
        'the order to be selected',
      );
      assert.equal(h.api.ordersView.badge?.value, 1, 'looked at: only the suspended order still counts');
    });

    it('groups changes that arrive together into one notice', async () => {
      const shown = notices();
      const [a, b] = await nodesOf('running');
      h.mock.state.setOrderStatus(a!.id, 'stopped');
      h.mock.state.setOrderStatus(b!.id, 'suspended');
      await h.store.refresh(['orders'], 'user');
      await waitFor(() => shown.length > 0, 'the notice', 5_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      assert.equal(shown.length, 1);
      assert.match(shown[0]?.message ?? '', /^2 servers changed outside this window: /);
      assert.deepEqual(shown[0]?.buttons, ['Show', 'Show History']);
    });

    it("says nothing of the user's own actions", async () => {
      // In this order: the notices' capture passes the confirmation on to the messages'.
      const messages = captureMessages({ warning: 'Stop' });
      restores.push(messages.restore);
      const shown = notices();
      const target = (await nodesOf('running'))[0]!;
      await vscode.commands.executeCommand('hostingAccount.order.stop', target);
      await waitFor(() => !h.store.pending(target.id), 'the stop to settle', 10_000);
      await h.store.refresh(['orders'], 'user');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      assert.equal(h.store.orders.get(target.id)?.state, 'stopped');
      assert.deepEqual(shown, []);
    });
  });

  describe("the assistant's tools", () => {
    const text = (result: vscode.LanguageModelToolResult): string =>
      result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');

    it('are registered when VS Code has the API', () => {
      const names = vscode.lm.tools.map((t) => t.name);
      for (const name of ['hosting_listOrders', 'hosting_account', 'hosting_orderAction']) {
        assert.ok(names.includes(name), name);
      }
    });

    it('hosting_listOrders answers names, states, addresses and ids, and no key', async () => {
      const result = await vscode.lm.invokeTool('hosting_listOrders', { input: {}, toolInvocationToken: undefined });
      const answer = JSON.parse(text(result)) as {
        total: number;
        orders: Array<{ id: string; name: string; state: string; address?: string }>;
      };
      assert.equal(answer.total, h.mock.state.orders.length);
      assert.deepEqual(
        answer.orders.map((o) => o.id),
        h.mock.state.orders.map((o) => String(o.id)),
      );
      assert.equal(answer.orders[0]?.address, '203.0.113.10');
      assert.ok(!text(result).includes('demo'), 'no key');
      const stopped = JSON.parse(
        text(
          await vscode.lm.invokeTool('hosting_listOrders', {
            input: { state: 'stopped' },
            toolInvocationToken: undefined,
          }),
        ),
      ) as { matching: number };
      assert.equal(stopped.matching, 2);
    });

    it('hosting_account answers the balance and unpaid invoices', async () => {
      const result = await vscode.lm.invokeTool('hosting_account', { input: {}, toolInvocationToken: undefined });
      const answer = JSON.parse(text(result)) as {
        balance: { amount: number; currency: string };
        unpaidInvoices: number;
      };
      assert.deepEqual(answer.balance, { amount: 42.5, currency: 'EUR' });
      assert.equal(answer.unpaidInvoices, 2);
    });

    it('hosting_orderAction asks for confirmation naming the order and the action, then sends one POST', async () => {
      const tools = h.api.tools;
      assert.ok(tools, 'the tools are registered');
      const target = (await nodesOf('running'))[0]!;
      const prepared = tools.orderAction.prepareInvocation({ input: { orderId: target.id, action: 'stop' } });
      assert.equal(prepared.confirmationMessages?.title, `Stop ${plain(target.order.label)}?`);
      const message = prepared.confirmationMessages?.message;
      const body = typeof message === 'string' ? message : (message?.value ?? '');
      assert.ok(
        body.startsWith('Asked by the assistant') && body.includes(plain(target.order.label).replace(/-/g, '\\-')),
        body,
      );
      const result = await tools.orderAction.invoke({
        input: { orderId: target.id, action: 'stop' },
        toolInvocationToken: undefined,
      });
      assert.match(text(result), /"accepted":true/);
      assert.equal(h.requests(ACTION).length, 1);
      // Asked again (VS Code prepares every call, so the user confirms every call): refused while the first runs.
      tools.orderAction.prepareInvocation({ input: { orderId: target.id, action: 'stop' } });
      await assert.rejects(
        Promise.resolve(
          tools.orderAction.invoke({ input: { orderId: target.id, action: 'stop' }, toolInvocationToken: undefined }),
        ),
        /already under way|cannot be asked/,
      );
      assert.equal(h.requests(ACTION).length, 1, 'no second POST');
      await waitFor(() => !h.store.pending(target.id), 'the stop to settle', 10_000);
    });

    describe('one approval, one action', () => {
      const call = (input: { orderId: string; action: 'start' | 'stop' | 'restart' }) =>
        Promise.resolve(h.api.tools.orderAction.invoke({ input, toolInvocationToken: undefined }));
      const record = (id: string, name: string, status: 'running' | 'stopped', ip: string): OrderRecord => ({
        ...orderRecord(0, name, status, ip),
        id,
      });
      const seed = async (...orders: OrderRecord[]): Promise<void> => {
        h.mock.state.orders.push(...orders);
        await h.store.refresh(['orders'], 'user');
        h.mock.clearLog();
      };

      it('a declined stop is not sent by a later call whose name became ambiguous (nothing asked then)', async () => {
        await seed(record('st', 'staging-2', 'running', '203.0.113.40'));
        const input = { orderId: 'staging-2', action: 'stop' as const };
        const asked = h.api.tools.orderAction.prepareInvocation({ input });
        assert.equal(asked.confirmationMessages?.title, 'Stop staging-2?');
        // The user declines: VS Code never invokes the tool. Then another server gets the same name.
        await seed(record('st-b', 'staging-2', 'stopped', '203.0.113.41'));
        assert.equal(h.api.tools.orderAction.prepareInvocation({ input }).confirmationMessages, undefined);
        await assert.rejects(call(input), /No single server has the ID or the exact name "staging-2"/);
        assert.deepEqual(h.requests(ACTION), [], 'no POST /orders/st/action');
      });

      it('a declined stop is not sent by a later call made while the server was missing from the list', async () => {
        await seed(record('w4', 'worker-4', 'running', '203.0.113.44'));
        const input = { orderId: 'w4', action: 'stop' as const };
        assert.ok(h.api.tools.orderAction.prepareInvocation({ input }).confirmationMessages, 'asked, then declined');
        const w4 = h.mock.state.getOrder('w4');
        assert.ok(w4);
        h.mock.state.orders = h.mock.state.orders.filter((o) => o !== w4);
        await h.store.refresh(['orders'], 'user');
        assert.equal(h.api.tools.orderAction.prepareInvocation({ input }).confirmationMessages, undefined);
        await seed(w4);
        await assert.rejects(call(input), /No single server has the ID or the exact name "w4"/);
        assert.deepEqual(h.requests(ACTION), [], 'no POST /orders/w4/action');
      });

      it('acts on the confirmation of its own call, once, though another call was prepared in between', async () => {
        await seed(record('w4', 'worker-4', 'running', '203.0.113.44'), record('w5', 'worker-5', 'running', ''));
        const first = { orderId: 'w4', action: 'stop' as const };
        const second = { orderId: 'w5', action: 'restart' as const };
        await assert.rejects(call(first), /was not asked to confirm this action/, 'never prepared');
        // VS Code prepares both calls, the user approves both, then it invokes them.
        h.api.tools.orderAction.prepareInvocation({ input: first });
        h.api.tools.orderAction.prepareInvocation({ input: second });
        assert.match(text(await call(first)), /"accepted":true/);
        assert.match(text(await call(second)), /"accepted":true/);
        await assert.rejects(call(second), /was not asked to confirm this action/, 'consumed');
        await assert.rejects(call({ ...first, action: 'restart' }), /was not asked/, 'another action, never confirmed');
        assert.deepEqual(
          h.requests(ACTION).map((r) => r.rawPath),
          ['/api/v1/orders/w4/action', '/api/v1/orders/w5/action'],
        );
        await waitFor(() => !h.store.pending('w4') && !h.store.pending('w5'), 'both to settle', 10_000);
      });
    });

    it('hosting_orderAction refuses reinstall through invokeTool, sending nothing', async () => {
      const target = (await nodesOf('running'))[0]!;
      await assert.rejects(
        Promise.resolve(
          vscode.lm.invokeTool('hosting_orderAction', {
            input: { orderId: target.id, action: 'reinstall' },
            toolInvocationToken: undefined,
          }),
        ),
        /Reinstall is not available to the assistant|must be equal to one of|enum/i,
      );
      const tools = h.api.tools;
      await assert.rejects(
        Promise.resolve(
          tools?.orderAction.invoke({
            input: { orderId: target.id, action: 'reinstall' as 'stop' },
            toolInvocationToken: undefined,
          }),
        ),
        /Reinstall is not available to the assistant/,
      );
      assert.equal(
        tools?.orderAction.prepareInvocation({ input: { orderId: target.id, action: 'reinstall' as 'stop' } })
          .confirmationMessages,
        undefined,
      );
      assert.equal(h.requests(ACTION).length, 0);
    });
  });
});
