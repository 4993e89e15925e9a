/**
 * One identity per order, and values refused rather than dropped, in the extension: an order whose first id field holds
 * no id is not shown (never read from another field), orders that share an id are both shown and neither is acted on,
 * and an address the host rule refuses is said, with why, where the server would otherwise just be missing.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { plain } from '../../src/util/serverText';
import { orderRecord } from '../mock-api/data';
import { type OrderRecord } from '../mock-api/types';
import { captureMessages, Harness, stubWindow, waitFor } from './harness';

const ACTION = 'POST /api/v1/orders/:id/action';

/** `orderRecord` with ids and states of any type: the point of this suite is what a server may send there. */
function order(id: unknown, name: string, status: string, ip: string, extra: object = {}): OrderRecord {
  return orderRecord(id as number, name, status as OrderRecord['status'], ip, extra as Record<string, unknown>);
}

describe('one identity per order, and refused values told', () => {
  let h: Harness;
  const restores: Array<() => void> = [];

  before(async () => {
    h = await Harness.start({
      seed: {
        orders: [
          // Its first id field holds an object: unreadable, never read as order 2 from `server_id`.
          order({ value: 'srv-A' }, 'web-A', 'running', '203.0.113.1', { server_id: '2' }),
          order('2', 'db-B', 'running', '203.0.113.2'),
          order(5, 'twin-one', 'running', '203.0.113.5'),
          order(5, 'twin-two', 'stopped', '203.0.113.6'),
          order(9, 'odd-address', 'running', '-oProxyCommand=touch /tmp/pwned'),
        ],
      },
    });
    await h.signIn();
    await h.setSetting('confirmStopAndRestart', false);
  });
  afterEach(() => {
    for (const restore of restores.splice(0).reverse()) restore();
  });
  after(async () => {
    await h.setSetting('confirmStopAndRestart', undefined);
    await h.dispose();
  });

  it('never takes an id from a fallback field: web-A is not shown, and Stop on db-B stops db-B', async () => {
    const nodes = await h.orderNodes();
    const names = nodes.map((n) => plain(n.order.label));
    assert.ok(!names.includes('web-A'), names.join(', '));
    const dbB = nodes.find((n) => plain(n.order.label) === 'db-B');
    assert.ok(dbB && dbB.id === '2');
    h.mock.clearLog();
    await vscode.commands.executeCommand('hostingAccount.order.stop', dbB);
    assert.deepEqual(
      h.requests(ACTION).map((r) => r.rawPath),
      ['/api/v1/orders/2/action'],
    );
    await waitFor(() => !h.store.pending('2'), 'the stop to settle', 10_000);
  });

  it('shows both orders that share an id, marked, with no action, and the palette offers neither', async () => {
    const twins = (await h.orderNodes()).filter((n) => n.id === '5');
    assert.equal(twins.length, 2);
    const items = twins.map((n) => h.api.orders.getTreeItem(n));
    assert.notEqual(items[0]?.id, items[1]?.id, 'distinct tree item ids');
    for (const item of items) {
      assert.equal(item.contextValue, 'duplicateOrder', 'no menu action matches');
      assert.match(String(item.description), /same ID as another server/);
    }
    const tooltip = h.api.orders.resolveTreeItem(h.api.orders.getTreeItem(twins[0]!), twins[0]!)
      .tooltip as vscode.MarkdownString;
    assert.match(tooltip.value, /servers with the ID 5/);
    const offered: string[][] = [];
    restores.push(
      stubWindow('showQuickPick', (list: vscode.QuickPickItem[]) => {
        offered.push(list.map((i) => i.label));
        return Promise.resolve(undefined);
      }),
    );
    await vscode.commands.executeCommand('hostingAccount.order.stop');
    assert.ok(!offered[0]?.some((label) => label.includes('twin-')), offered[0]?.join(', '));
    // Even a command given one of them directly sends nothing.
    const messages = captureMessages();
    restores.push(messages.restore);
    h.mock.clearLog();
    await vscode.commands.executeCommand('hostingAccount.order.stop', twins[0]);
    assert.equal(h.requests(ACTION).length, 0, 'no POST for an id two orders share');
    assert.equal(messages.shown.length, 1, 'the refusal is told');
  });

  it('says which address was refused and why, where the server would otherwise be missing', async () => {
    const offered: string[][] = [];
    restores.push(
      stubWindow('showQuickPick', (list: Array<vscode.QuickPickItem & { order?: { id: string } }>) => {
        offered.push(list.map((i) => i.label));
        return Promise.resolve(list.find((i) => i.order?.id === '9'));
      }),
    );
    const messages = captureMessages();
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.order.connectSsh');
    assert.ok(
      offered[0]?.some((label) => label.includes('odd-address')),
      'offered, not silently missing',
    );
    const told = messages.shown.find((m) => m.level === 'error');
    assert.ok(told, 'the refusal is told');
    assert.match(told.message, /-oProxyCommand/);
    assert.match(told.message, /starts with "-"/);
    const node = (await h.orderNodes()).find((n) => n.id === '9');
    assert.ok(node);
    const tooltip = h.api.orders.resolveTreeItem(h.api.orders.getTreeItem(node), node).tooltip as vscode.MarkdownString;
    assert.match(tooltip.value, /Address not used/);
  });
});
