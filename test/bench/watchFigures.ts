/**
 * The figures of issue 13, measured in plain Node: the slow watch's request rate on a simulated clock, a bulk Stop of
 * 20 orders through the same command code the tree runs (with `vscode` stood in), and filtering 10,000 orders.
 */
import { performance } from 'node:perf_hooks';
import { ApiClient } from '../../src/api/ApiClient';
import { systemClock } from '../../src/api/clock';
import { LimiterRegistry } from '../../src/api/limiterRegistry';
import { type Order } from '../../src/api/models';
import { RefreshScheduler } from '../../src/store/RefreshScheduler';
import { Store } from '../../src/store/Store';
import type * as BulkModule from '../../src/commands/bulkOrderAction';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import type * as TreeModule from '../../src/views/orders/OrdersTreeProvider';
import type * as NodeOfModule from '../../src/views/orders/orderNodeOf';
import { arrangeOrders } from '../../src/views/orders/filter';
import { SlowWatch } from '../../src/watch/SlowWatch';
import { DEMO_API_KEY, startMockApi } from '../mock-api/server';
import { FakeClock } from '../unit/helpers/FakeClock';
import { apiRequests, simulate, storeFor } from '../unit/helpers/storeRig';
import { type Figure } from './figures';
import { round, summarize } from './stats';
import { installStandIn, standIn } from './vscodeStandIn';

/** An hour with the Orders view hidden and the window focused, default settings: what the watch adds. */
export async function watchRateFigures(minutes = 60): Promise<Figure[]> {
  const mock = await startMockApi();
  try {
    const clock = new FakeClock(Date.now());
    const { store } = storeFor(mock, clock);
    const scheduler = new RefreshScheduler(store, 60, clock);
    await store.keyChanged();
    scheduler.setVisibility({ ordersVisible: false, focused: true });
    await store.refresh(['orders'], 'user');
    const watch = new SlowWatch(store, clock, 5, { ordersVisible: false, focused: true });
    await simulate(clock, store, 60_000);
    mock.clearLog();
    await simulate(clock, store, minutes * 60_000);
    const all = apiRequests(mock);
    const lists = all.filter((r) => r.route === 'GET /api/v1/orders').length;
    watch.dispose();
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
    label: `node-${(count - i).toString().padStart(5, '0')}`,
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
  installStandIn();
  // Loaded after the stand-in, so their `require('vscode')` finds it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { OrdersTreeProvider } = require('../../src/views/orders/OrdersTreeProvider') as typeof TreeModule;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runOnSelection } = require('../../src/commands/bulkOrderAction') as typeof BulkModule;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { orderNodeOf } = require('../../src/views/orders/orderNodeOf') as typeof NodeOfModule;
  const mock = await startMockApi({ transitionMs: 500, rateLimit: { limit: 120, windowMs: 60_000 } });
  const window = standIn.window as unknown as Record<string, unknown>;
  const originalWarning = window.showWarningMessage;
  try {
    for (const added of mock.state.addOrders(count)) mock.state.setOrderStatus(added.id, 'running');
    const store = new Store({
      createClient: (options) =>
        new ApiClient({ ...options, userAgent: 'bench', limiters: new LimiterRegistry(61_000, systemClock) }),
      getKey: () => Promise.resolve(DEMO_API_KEY),
      settings: () => ({ baseUrl: mock.url, requestsPerMinute: 100, requestTimeoutMs: 10_000 }),
    });
    await store.keyChanged();
    await store.refresh(['orders', 'balance'], 'user');
    const tree = new OrdersTreeProvider(store);
    const nodes = (await tree.getChildren())
      .map((node) => orderNodeOf(tree, node))
      .filter((node): node is OrderNode => node?.order.label.startsWith('node-') === true);
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
    const ctx = {
      store,
      orders: tree,
      settings: () => ({ confirmStopAndRestart: true }),
      log: { show: () => undefined },
    };
    const run = runOnSelection(ctx as unknown as Parameters<typeof runOnSelection>[0], 'stop', nodes[0], nodes);
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
    tree.dispose();
    store.dispose();
    return [
      {
        id: 'bulkStopPosts',
        label: `bulk Stop of ${count} orders: POSTs sent, 429 responses`,
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
    await mock.close();
  }
}
