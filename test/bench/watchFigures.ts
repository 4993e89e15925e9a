/**
 * The figures of issue 13, measured in plain Node: the slow watch's request rate on a simulated clock, a bulk Stop of
 * 20 orders through the same command code the tree runs (with `vscode` stood in), and filtering 10,000 orders.
 */
import { performance } from 'node:perf_hooks';
import { type Order } from '../../src/api/models';
import { plain, serverText } from '../../src/util/serverText';
import type * as BulkModule from '../../src/commands/bulkOrderAction';
import { Scheduler } from '../../src/store/Scheduler';
import type * as NodeModule from '../../src/views/orders/OrderNode';
import { arrangeOrders } from '../../src/views/orders/filter';
import { startMockApi } from '../mock-api/server';
import { FakeClock } from '../unit/helpers/FakeClock';
import { apiRequests, simulate, storeFor } from '../unit/helpers/storeRig';
import { type Figure } from './figures';
import { round, summarize } from './stats';
import { standInViews } from './standInModel';
import { standIn } from './vscodeStandIn';

/** An hour with the Orders view hidden and the window focused, default settings: what the watch adds. */
export async function watchRateFigures(minutes = 60): Promise<Figure[]> {
  const mock = await startMockApi();
  try {
    const clock = new FakeClock(Date.now());
    const { store } = storeFor(mock, clock);
    const scheduler = new Scheduler(store, { refreshSeconds: 60, watchMinutes: 5 }, clock);
    await store.keyChanged();
    scheduler.setVisibility({ ordersVisible: false, focused: true });
    await store.refresh(['orders'], 'user');
    await simulate(clock, store, 60_000);
    mock.clearLog();
    await simulate(clock, store, minutes * 60_000);
    const all = apiRequests(mock);
    const lists = all.filter((r) => r.route === 'GET /api/v1/orders').length;
    scheduler.dispose();
    store.dispose();
    const rate = lists / minutes;
    return [
      {
        id: 'watchRate',
        label: 'background watch at defaults (view hidden, window focused): requests per minute',
        value: `${round(rate)}`,
        budget: '≤ 0.2',
        met: rate <= 0.2,
        detail: `${lists} order-list reads in ${minutes} simulated minutes (watchInterval 5); with the balance refresh the scheduler already makes, ${round(all.length / minutes)} requests/min in all`,
      },
    ];
  } finally {
    await mock.close();
  }
}

/** Filter (running) and sort (by name) of 10,000 orders, as the Orders view arranges them on every redraw. */
export function filterFigures(count = 10_000, samples = 25): Figure[] {
  const states = ['running', 'running', 'stopped', 'busy', 'suspended'] as const;
  const orders: Order[] = Array.from({ length: count }, (_, i) => ({
    id: String(100_000 + i),
    label: serverText(`node-${(count - i).toString().padStart(5, '0')}`),
    state: states[i % states.length] ?? 'running',
    raw: {},
  }));
  const pending = (): undefined => undefined;
  for (let i = 0; i < 5; i++) arrangeOrders(orders, { filter: 'running', sort: 'server' }, pending);
  const time = (run: () => unknown): number => {
    const started = performance.now();
    run();
    return performance.now() - started;
  };
  const filter = summarize(
    Array.from({ length: samples }, () =>
      time(() => arrangeOrders(orders, { filter: 'running', sort: 'server' }, pending)),
    ),
  );
  const sorted = summarize(
    Array.from({ length: samples }, () =>
      time(() => arrangeOrders(orders, { filter: 'running', sort: 'name' }, pending)),
    ),
  );
  return [
    {
      id: 'filter10k',
      label: `${count.toLocaleString('en')} orders: filtering by state`,
      value: `${round(filter.median)} ms`,
      budget: '≤ 20 ms',
      met: filter.median <= 20,
      detail: `p10–p90 ${round(filter.p10)}–${round(filter.p90)} ms; filtered and sorted by name ${round(sorted.median)} ms (p90 ${round(sorted.p90)})`,
    },
  ];
}

/**
 * A bulk Stop of 20 orders through the command code the tree runs, against the mock's 120/min limit: the POSTs sent,
 * the 429s met, and the time from the confirmation to every node showing busy.
 */
export async function bulkStopFigures(count = 20): Promise<Figure[]> {
  const mock = await startMockApi({ transitionMs: 500, rateLimit: { limit: 120, windowMs: 60_000 } });
  const views = await standInViews(mock.url);
  // Loaded after the stand-in, so their `require('vscode')` finds it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runOnSelection } = require('../../src/commands/bulkOrderAction') as typeof BulkModule;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { OrderNode } = require('../../src/views/orders/OrderNode') as typeof NodeModule;
  const window = standIn.window as unknown as Record<string, unknown>;
  const originalWarning = window.showWarningMessage;
  try {
    for (const added of mock.state.addOrders(count)) mock.state.setOrderStatus(added.id, 'running');
    const account = views.model.first;
    const { store } = account;
    await store.refresh(['orders', 'balance'], 'user');
    const tree = views.tree;
    const nodes = (await tree.getChildren()).filter(
      (node): node is NodeModule.OrderNode => node instanceof OrderNode && plain(node.order.label).startsWith('node-'),
    );
    mock.clearLog();
    let confirmedAt = 0;
    let asked = 0;
    window.showWarningMessage = (_message: string, _options: unknown, title: string) => {
      asked++;
      confirmedAt = performance.now();
      return Promise.resolve(title);
    };
    const busyAfter = new Promise<number>((resolve, reject) => {
      const giveUp = performance.now() + 30_000;
      const check = (): void => {
        // `order.busy`, or `order.busy.address` for a server with an address.
        const busy = nodes.every((node) => /^order\.busy(?:\.|$)/.test(tree.getTreeItem(node).contextValue ?? ''));
        if (confirmedAt && busy) resolve(performance.now() - confirmedAt);
        else if (performance.now() > giveUp) reject(new Error('the servers were not all shown busy within 30 s'));
        else setImmediate(check);
      };
      check();
    });
    const host = { log: { show: () => undefined } } as unknown as Parameters<typeof runOnSelection>[0];
    const run = runOnSelection(host, account, 'stop', nodes[0], nodes);
    const busyMs = await busyAfter;
    await run;
    // Until every order settled: the settling polls count against the same limit.
    const started = Date.now();
    while (nodes.some((node) => store.pending(node.id)) && Date.now() - started < 60_000) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const api = apiRequests(mock);
    const posts = api.filter((r) => r.method === 'POST').length;
    const limited = api.filter((r) => r.status === 429).length;
    return [
      {
        id: 'bulkStopPosts',
        label: `bulk Stop of ${count} orders in one window, mock 120/min: POSTs sent, 429 responses`,
        value: `${posts} POSTs, ${limited} × 429`,
        budget: `exactly ${count} POSTs, 0 × 429`,
        met: posts === count && limited === 0 && asked === 1,
        detail: `${asked} confirmation; ${api.length} requests in all until every order settled (settling polls included), mock limit 120/min`,
      },
      {
        id: 'bulkStopBusy',
        label: `bulk Stop of ${count} orders: confirmation to busy shown on all`,
        value: `${round(busyMs, 1)} ms`,
        budget: '≤ 200 ms',
        met: busyMs <= 200,
        detail: 'measured on the tree items the Orders view gets (vscode stood in), not in a browser',
      },
    ];
  } finally {
    window.showWarningMessage = originalWarning;
    views.dispose();
    await mock.close();
  }
}
