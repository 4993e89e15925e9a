import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import { renderOrder } from '../mock-api/shapes';
import { Harness, waitFor } from './harness';
import { plain } from '../../src/util/serverText';

describe('the Orders view', () => {
  let h: Harness;

  before(async () => {
    h = await Harness.start();
    await h.signIn();
  });
  after(() => h.dispose());

  async function roots(): Promise<OrderNode[]> {
    return (await h.api.orders.getChildren()) as OrderNode[];
  }

  function item(node: OrderNode): vscode.TreeItem {
    return h.api.orders.getTreeItem(node);
  }

  it('shows one item per order, labelled by name, with a stable id', async () => {
    const nodes = await roots();
    assert.deepEqual(
      nodes.map((n) => item(n).label),
      h.mock.state.orders.map((o) => o.name),
    );
    assert.deepEqual(
      nodes.map((n) => item(n).id),
      h.mock.state.orders.map((o) => `order/${o.id}`),
    );
  });

  it('gives each state its icon, colour, description and contextValue', async () => {
    const byName = new Map((await roots()).map((n) => [plain(n.order.label), item(n)]));
    const running = byName.get('web-frontend-01');
    assert.equal(running?.contextValue, 'order.running.address');
    assert.equal((running?.iconPath as vscode.ThemeIcon).id, 'vm-running');
    assert.equal(((running?.iconPath as vscode.ThemeIcon).color as vscode.ThemeColor).id, 'debugIcon.startForeground');
    // The address first: a narrow sidebar cuts the end of the row, and the icon already shows the state.
    assert.match(String(running?.description), /^\d+\.\d+\.\d+\.\d+ · Running$/);
    const stopped = [...byName.values()].find((i) => i.contextValue === 'order.stopped.address');
    assert.equal((stopped?.iconPath as vscode.ThemeIcon).id, 'vm-outline');
    assert.ok([...byName.values()].some((i) => i.contextValue === 'order.suspended.address'));
    const busy = [...byName.values()].find((i) => i.contextValue === 'order.busy.address');
    assert.equal((busy?.iconPath as vscode.ThemeIcon).id, 'loading~spin');
    assert.match(String(busy?.description), /Starting…?$/);
  });

  it('builds a Markdown tooltip with every field the server sent, only when asked', async () => {
    const node = (await roots())[0];
    assert.ok(node);
    const plain = item(node);
    assert.equal(plain.tooltip, undefined, 'no eager tooltip');
    const resolved = h.api.orders.resolveTreeItem(plain, node);
    const markdown = (resolved.tooltip as vscode.MarkdownString).value;
    for (const key of Object.keys(h.mock.state.orders[0] ?? {})) {
      assert.ok(markdown.includes(key.replace(/_/g, '\\_')), key);
    }
  });

  it('fetches nothing per order until one is expanded, then reads GET /orders/{id} and shows all its fields', async () => {
    h.mock.clearLog();
    const node = (await roots())[1];
    assert.ok(node);
    assert.equal(h.requests('GET /api/v1/orders/:id').length, 0);
    const fields = await h.api.orders.getChildren(node);
    assert.equal(h.requests('GET /api/v1/orders/:id').length, 1);
    const labels = fields.map((f) => h.api.orders.getTreeItem(f).label);
    const record = h.mock.state.getOrder(node.id);
    assert.ok(record);
    // Its renewal in our words first, then what the suite's mock sends for it: the record, and the renewal fields of
    // its standard shape.
    const [renewal, ...sent] = labels;
    assert.match(typeof renewal === 'string' ? renewal : '', /^Renews \w+ \d+ · €39\.90 \/ month$/);
    assert.deepEqual(sent, Object.keys(renderOrder('standard', record)));
    await h.api.orders.getChildren(node);
    assert.equal(h.requests('GET /api/v1/orders/:id').length, 1, 'expanding again within seconds reuses the answer');
  });

  it('opens Show Details as a read-only JSON document with every field', async () => {
    const node = (await roots())[0];
    assert.ok(node);
    await vscode.commands.executeCommand('hostingAccount.order.showDetails', node);
    const editor = await waitFor(
      () => vscode.window.activeTextEditor?.document.uri.scheme === 'hosting-account' && vscode.window.activeTextEditor,
      'the details editor',
    );
    const json = JSON.parse(editor.document.getText()) as Record<string, unknown>;
    const served = h.mock.state.getOrder(node.id);
    assert.ok(served);
    // What the mock sent for this order: its record with the renewal fields of the standard shape.
    assert.deepEqual(json, renderOrder('standard', served));
    assert.equal(editor.document.languageId, 'json');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('redraws only the order that changed', async () => {
    const fired: unknown[] = [];
    const subscription = h.api.orders.onDidChangeTreeData((e) => fired.push(e));
    try {
      const target = h.mock.state.orders.find((o) => o.status === 'stopped');
      assert.ok(target);
      h.mock.state.setOrderStatus(target.id, 'running');
      await h.store.refresh(['orders'], 'user');
      await waitFor(() => fired.length > 0, 'a change event');
      assert.equal(fired.length, 1);
      const nodes = fired[0] as OrderNode[];
      assert.ok(Array.isArray(nodes), 'an array of nodes, not a whole-tree refresh');
      assert.deepEqual(
        nodes.map((n) => n.id),
        [String(target.id)],
      );
    } finally {
      subscription.dispose();
    }
  });

  it('copies an order id', async () => {
    const node = (await roots())[0];
    assert.ok(node);
    await vscode.commands.executeCommand('hostingAccount.order.copyId', node);
    assert.equal(await vscode.env.clipboard.readText(), node.id);
  });

  it('coalesces 30 Refresh clicks into at most one request per endpoint', async () => {
    // Data loaded within the last two seconds counts as fresh: let it age, so the first click has to fetch.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    h.mock.clearLog();
    await Promise.all(Array.from({ length: 30 }, () => vscode.commands.executeCommand('hostingAccount.refresh')));
    const perRoute = new Map<string, number>();
    for (const r of h.requests()) perRoute.set(r.route, (perRoute.get(r.route) ?? 0) + 1);
    assert.ok(perRoute.get('GET /api/v1/orders') === 1, JSON.stringify([...perRoute]));
    assert.ok(
      [...perRoute.values()].every((count) => count <= 1),
      JSON.stringify([...perRoute]),
    );
  });

  it('keeps the last good orders, marked stale, when a refresh fails, and recovers on the next one', async () => {
    const before = (await roots()).length;
    h.mock.faults.add({ kind: 'status', status: 500, path: '/api/v1/orders' });
    await h.store.refresh(['orders'], 'background');
    assert.equal((await roots()).length, before, 'the tree does not go blank');
    assert.match(h.api.ordersView.message ?? '', /Showing data from .*\. The last refresh failed: HTTP 500\./);
    h.mock.faults.clear();
    await h.store.refresh(['orders'], 'background');
    assert.equal(h.api.ordersView.message, undefined);
  });
});
