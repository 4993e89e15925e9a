/**
 * The figures measured in plain Node: bundle sizes, activation (bundle loaded with `vscode` stood in), background
 * request rates on a simulated clock, 10,000 orders, and a flood of actions against the mock's limit.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseJson } from '../../src/api/json';
import { ORDER_ACTIONS } from '../../src/api/models';
import { normaliseOrderList } from '../../src/api/normalise/order';
import { maskSecrets } from '../../src/api/secretMask';
import { Scheduler } from '../../src/store/Scheduler';
import { startMockApi } from '../mock-api/server';
import { type MockApi } from '../mock-api/types';
import { cacheDir, projectRoot } from '../rig/paths';
import { FakeClock } from '../unit/helpers/FakeClock';
import { apiRequests, drain, idle, simulate, storeFor } from '../unit/helpers/storeRig';
import { type Figure } from './figures';
import { round, summarize } from './stats';
import { standInViews } from './standInModel';

const dist = path.join(projectRoot, 'dist');
const kb = (bytes: number): string => `${round(bytes / 1024, 1)} KB`;

export function sizeFigures(): Figure[] {
  const size = (file: string): number => fs.statSync(path.join(dist, file)).size;
  const activation = size('extension.js');
  const vsix = fs.statSync(path.join(projectRoot, 'hosting-account.vsix')).size;
  return [
    {
      id: 'vsixBytes',
      label: 'VSIX size, with the thirteen languages (about 17 KB each, compressed)',
      value: kb(vsix),
      budget: '≤ 600 KB',
      met: vsix <= 600 * 1024,
      detail:
        `bundles: extension.js ${kb(activation)} (at activation), ` +
        `undici.js ${kb(size('undici.js'))} (first request); a download of this size takes well under a second`,
      data: { vsix, main: activation, undici: size('undici.js') },
    },
  ];
}

interface Probe {
  loadMs: number;
  activateMs: number;
  httpLoaded: boolean;
}

export function activationFigures(samples = 25): Figure[] {
  const probe = path.join(__dirname, 'activationProbe.js');
  const empty = path.join(cacheDir, 'bench', 'empty-extension.js');
  fs.mkdirSync(path.dirname(empty), { recursive: true });
  fs.writeFileSync(
    empty,
    "'use strict';\nexports.activate = function activate() {};\nexports.deactivate = function deactivate() {};\n",
  );
  const run = (bundle: string): Probe =>
    JSON.parse(execFileSync(process.execPath, [probe, bundle], { encoding: 'utf8' })) as Probe;
  const ours: Probe[] = [];
  const baseline: Probe[] = [];
  // Interleaved, so a slow patch of the machine hits both alike.
  for (let i = 0; i < samples; i++) {
    ours.push(run(path.join(dist, 'extension.js')));
    baseline.push(run(empty));
  }
  const activate = summarize(ours.map((p) => p.activateMs));
  const total = summarize(ours.map((p) => p.loadMs + p.activateMs));
  const emptyTotal = summarize(baseline.map((p) => p.loadMs + p.activateMs));
  const emptyActivate = summarize(baseline.map((p) => p.activateMs));
  return [
    {
      id: 'activateMs',
      label: '`activate()` time, median (Node, bundle with vscode stood in)',
      value: `${round(activate.median)} ms`,
      budget: '≤ 5 ms',
      met: activate.median <= 5,
      detail:
        `p10–p90 ${round(activate.p10)}–${round(activate.p90)} ms over ${activate.n} fresh processes; with loading the bundle ` +
        `${round(total.median)} ms vs ${round(emptyTotal.median)} ms for an empty extension (ratio ${round(total.median / emptyTotal.median, 1)}×); ` +
        `activate() alone vs empty: ${round(activate.median / Math.max(emptyActivate.median, 0.001), 0)}×`,
      data: { ours, baseline },
    },
    {
      id: 'httpAtActivation',
      label: 'HTTP stack (undici) loaded at activation',
      value: ours.some((p) => p.httpLoaded) ? 'yes' : 'no',
      budget: 'no: on the first request',
      met: !ours.some((p) => p.httpLoaded),
    },
  ];
}

/** Two accounts side by side (two APIs, two stores, two schedules on one clock): the idle rate of each. */
export async function idlePerAccountFigures(minutes = 10): Promise<Figure[]> {
  const mocks = [await startMockApi(), await startMockApi()];
  const clock = new FakeClock(Date.now());
  const stores = mocks.map((mock) => storeFor(mock, clock).store);
  const schedulers = stores.map((store) => new Scheduler(store, { refreshSeconds: 60, watchMinutes: 5 }, clock));
  try {
    for (const store of stores) await store.keyChanged();
    for (const scheduler of schedulers) scheduler.setVisibility({ ordersVisible: true, focused: true });
    const run = async (ms: number): Promise<void> => {
      for (let passed = 0; passed < ms; passed += 5_000) {
        await clock.advance(Math.min(5_000, ms - passed));
        for (const store of stores) await idle(store);
      }
    };
    await run(60_000);
    for (const mock of mocks) mock.clearLog();
    await run(minutes * 60_000);
    const rates = mocks.map((mock) => apiRequests(mock).length / minutes);
    const worst = Math.max(...rates);
    return [
      {
        id: 'idlePerAccount',
        label: 'requests per minute per account, idle, two accounts, view visible',
        value: `${round(worst)}`,
        budget: '≤ 2 each',
        met: worst <= 2,
        detail: `${minutes} simulated minutes, default settings: ${rates.map(round).join(' and ')}`,
      },
    ];
  } finally {
    for (const scheduler of schedulers) scheduler.dispose();
    for (const store of stores) store.dispose();
    await Promise.all(mocks.map((mock) => mock.close()));
  }
}

export async function idleRateFigures(minutes = 10): Promise<Figure[]> {
  const mock = await startMockApi();
  try {
    const visible = await idleRate(mock, { ordersVisible: true, focused: true }, minutes);
    const hidden = await idleRate(mock, { ordersVisible: false, focused: true }, minutes);
    const unfocused = await idleRate(mock, { ordersVisible: true, focused: false }, minutes);
    const byIds = await idsIdleRate(minutes * 3);
    const failing = await idsIdleRate(minutes * 3, 500);
    const gone = await idsIdleRate(minutes * 3, 404);
    return [
      {
        id: 'idleVisible',
        label: 'requests per minute, idle, view visible and window focused',
        value: `${round(visible)}`,
        budget: '≤ 2',
        met: visible <= 2,
        detail: `${minutes} simulated minutes, default settings`,
      },
      {
        id: 'idleHidden',
        label: 'requests per minute, idle, view hidden (the watch at its defaults included), window focused',
        value: `${round(hidden)}`,
        budget: '≤ 0.3',
        met: hidden <= 0.3,
        detail: 'one scheduler per account: the watch reads the list every 5 minutes, the balance every 10',
      },
      {
        id: 'idleUnfocused',
        label: 'requests per minute, idle, window unfocused',
        value: `${round(unfocused)}`,
        budget: '0',
        met: unfocused === 0,
      },
      {
        id: 'idleIds',
        label: 'requests per minute, idle, view visible, 20 servers listed as bare ids',
        value: `${round(byIds)}`,
        budget: '≤ 5',
        met: byIds <= 5,
        detail: `${minutes * 3} simulated minutes: the list every minute, each server's details again every 10 minutes`,
      },
      {
        id: 'idleFailingIds',
        label:
          'idle requests with 20 failing id-only servers: requests per minute, view visible, every detail read failing',
        value: `${round(Math.max(failing, gone))}`,
        budget: '≤ 5',
        met: Math.max(failing, gone) <= 5,
        detail: `${minutes * 3} simulated minutes after the first: details answering 500 ${round(failing)}/min, 404 ${round(gone)}/min; each server's read backs off from a minute, doubling to 10`,
      },
    ];
  } finally {
    await mock.close();
  }
}

/** The idle rate of an account whose API lists 20 servers as bare ids (OVHcloud's style), each read at its path. */
async function idsIdleRate(minutes: number, detailsStatus?: number): Promise<number> {
  const mock = await startMockApi({ shape: 'ids', quiet: true });
  try {
    mock.state.addOrders(20 - mock.state.orders.length);
    if (detailsStatus) {
      mock.faults.add({ kind: 'status', method: 'GET', path: '/api/v1/orders/:id', status: detailsStatus });
    }
    return await idleRate(mock, { ordersVisible: true, focused: true }, minutes);
  } finally {
    await mock.close();
  }
}

/** Requests a minute after the first minute, which loads what the views need. */
async function idleRate(
  mock: MockApi,
  visibility: { ordersVisible: boolean; focused: boolean },
  minutes: number,
): Promise<number> {
  const clock = new FakeClock(Date.now());
  const { store } = storeFor(mock, clock);
  const scheduler = new Scheduler(store, { refreshSeconds: 60, watchMinutes: 5 }, clock);
  await store.keyChanged();
  scheduler.setVisibility(visibility);
  await simulate(clock, store, 60_000);
  mock.clearLog();
  await simulate(clock, store, minutes * 60_000);
  scheduler.dispose();
  store.dispose();
  return apiRequests(mock).length / minutes;
}

/** An honest list of 1,000 and of 10,000 orders read as the client reads each answer, then normalised. */
export async function readingFigures(samples = 15): Promise<Figure[]> {
  const mock = await startMockApi({ rateLimit: false, quiet: true });
  try {
    mock.state.addOrders(10_000 - mock.state.orders.length);
    const key = 'demo-0123456789abcdef0123456789abcdef';
    const whole = await (
      await fetch(`${mock.url}/api/v1/orders`, { headers: { authorization: `Bearer ${key}` } })
    ).text();
    const figures: Figure[] = [];
    for (const [count, readBudget, normaliseBudget] of [
      [1_000, 10, 10],
      [10_000, 150, 100],
    ] as const) {
      const list = JSON.parse(whole) as { data: unknown[] };
      const body = JSON.stringify({ ...list, data: list.data.slice(0, count) });
      const read = (): unknown => parseJson(maskSecrets(body, [key]));
      const parsed = read();
      // Steady state, as a list read every minute is: the first runs measure the compiler, not the code.
      for (let i = 0; i < 5; i++) normaliseOrderList(read());
      const reading = summarize(Array.from({ length: samples }, () => time(read)));
      const parse = summarize(Array.from({ length: samples }, () => time(() => JSON.parse(body))));
      const normalise = summarize(Array.from({ length: samples }, () => time(() => normaliseOrderList(parsed))));
      const orders = normaliseOrderList(parsed).orders.length;
      const n = count.toLocaleString('en');
      figures.push(
        {
          id: `read${count / 1000}k`,
          label: `${n} orders: reading the answer (key masked, bounds checked, parsed)`,
          value: `${round(reading.median)} ms`,
          budget: `≤ ${readBudget} ms`,
          met: reading.median <= readBudget,
          detail: `${kb(body.length)}; p10–p90 ${round(reading.p10)}–${round(reading.p90)} ms; JSON.parse alone ${round(parse.median)} ms`,
        },
        {
          id: `normalise${count / 1000}k`,
          label: `${n} orders: normalising the response`,
          value: `${round(normalise.median)} ms`,
          budget: `≤ ${normaliseBudget} ms`,
          met: normalise.median <= normaliseBudget && orders === count,
          detail: `p10–p90 ${round(normalise.p10)}–${round(normalise.p90)} ms; ${orders.toLocaleString('en')} orders read`,
        },
      );
    }
    return figures;
  } finally {
    await mock.close();
  }
}

export async function thousandsFigures(count = 10_000, samples = 15): Promise<Figure[]> {
  const mock = await startMockApi({ rateLimit: false });
  try {
    mock.state.addOrders(count - mock.state.orders.length);
    const gc = (globalThis as { gc?: () => void }).gc;
    const views = await standInViews(mock.url);
    const { store } = views.model.first;
    await store.refresh(['balance'], 'user');
    gc?.();
    const before = process.memoryUsage().heapUsed;
    await store.refresh(['orders'], 'user');
    const provider = views.tree;
    const build = async (): Promise<number> => {
      const started = performance.now();
      const roots = await provider.getChildren();
      for (const node of roots) provider.getTreeItem(node);
      return performance.now() - started;
    };
    const builds: number[] = [];
    for (let i = 0; i < samples; i++) builds.push(await build());
    const tree = summarize(builds);
    gc?.();
    const growth = process.memoryUsage().heapUsed - before;
    views.dispose();
    return [
      {
        id: 'tree10k',
        label: `${count.toLocaleString('en')} orders: building the tree's children`,
        value: `${round(tree.median)} ms`,
        budget: '≤ 50 ms',
        met: tree.median <= 50,
        detail: `getChildren + getTreeItem for every order; p10–p90 ${round(tree.p10)}–${round(tree.p90)} ms`,
      },
      {
        id: 'heap10k',
        label: `${count.toLocaleString('en')} orders: heap growth`,
        value: `${round(growth / 1024 / 1024, 1)} MB`,
        budget: '≤ 25 MB',
        met: growth <= 25 * 1024 * 1024,
        detail: gc
          ? 'after a full GC, orders loaded over HTTP into the store and the tree; the forecast holds its 30,000 renewals as plain objects (about 4 MB)'
          : 'no --expose-gc: rough',
      },
    ];
  } finally {
    await mock.close();
  }
}

/** Normalising 10,000 orders in each shape the mock speaks besides the standard one (resource documents, a paginator). */
export async function shapeFigures(count = 10_000, samples = 15): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const shape of ['jsonapi', 'paged'] as const) {
    const mock = await startMockApi({ rateLimit: false, shape, pageSize: count * 2, quiet: true });
    try {
      mock.state.addOrders(count - mock.state.orders.length);
      const body = await (
        await fetch(`${mock.url}/api/v1/orders`, {
          headers: { authorization: 'Bearer demo-0123456789abcdef0123456789abcdef' },
        })
      ).text();
      const parsed: unknown = JSON.parse(body);
      const read = normaliseOrderList(parsed).orders.length;
      // Steady state, as a list read every minute is: the first runs measure the compiler, not the code.
      for (let i = 0; i < 5; i++) normaliseOrderList(parsed);
      const normalise = summarize(Array.from({ length: samples }, () => time(() => normaliseOrderList(parsed))));
      figures.push({
        id: `normalise10k_${shape}`,
        label: `${count.toLocaleString('en')} orders, "${shape}" shape: normalising the response`,
        value: `${round(normalise.median)} ms`,
        budget: '≤ 100 ms',
        met: normalise.median <= 100 && read === count,
        detail: `p10–p90 ${round(normalise.p10)}–${round(normalise.p90)} ms; ${read} orders read from ${kb(body.length)}`,
      });
    } finally {
      await mock.close();
    }
  }
  return figures;
}

export async function floodFigures(): Promise<Figure[]> {
  const clock = new FakeClock(Date.now());
  const mock = await startMockApi({
    now: () => clock.now(),
    rateLimit: { limit: 120, windowMs: 60_000 },
    transitionMs: 200,
  });
  try {
    const { store } = storeFor(mock, clock, { requestsPerMinute: 100 });
    await store.keyChanged();
    await store.refresh(['orders'], 'user');
    const calls: Array<Promise<unknown>> = [];
    // Every action on every order, every second, for two simulated minutes.
    for (let second = 0; second < 120; second++) {
      for (const order of mock.state.orders) {
        for (const action of ORDER_ACTIONS) {
          calls.push(store.runAction(String(order.id), action).catch(() => undefined));
        }
      }
      await clock.advance(1_000);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await drain(clock, calls);
    store.dispose();
    const api = apiRequests(mock);
    const posts = api.filter((r) => r.method === 'POST').length;
    const limited = api.filter((r) => r.status === 429).length;
    return [
      {
        id: 'flood429',
        label: 'one window, every action on every order each second for 2 minutes, mock 120/min: 429 responses',
        value: String(limited),
        budget: '0',
        met: limited === 0,
        detail: `${calls.length} action attempts → ${posts} POSTs sent (the rest refused locally while one was under way), ${api.length} requests in all`,
      },
    ];
  } finally {
    await mock.close();
  }
}

function time(fn: () => unknown): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}
