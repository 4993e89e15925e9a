import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../src/api/errors';
import { type Order } from '../../src/api/models';
import { MAX_UNREADABLE_POLLS, type Settled } from '../../src/store/orders/OrderActions';
import { type Store } from '../../src/store/Store';
import { Scheduler } from '../../src/store/Scheduler';
import { OutsideChangeDetector } from '../../src/store/outsideChanges';
import { type FakeApi, storeOnFake } from './helpers/FakeApi';
import { FakeClock } from './helpers/FakeClock';
import { apiRequests, idle, simulate, storeFor } from './helpers/storeRig';
import { type MockApi, startMockApi } from '../mock-api/server';
import { ScriptedServer, json } from './helpers/scriptedServer';
import { plain, serverText } from '../../src/util/serverText';

/** OVHcloud's style: the list is the servers' ids, and each one's details are at its single path. */
function servers(count: number): Order[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `ns30012${String(i).padStart(2, '0')}.ip-203-0-113.eu`,
    label: serverText(`server-${i}`),
    state: 'running',
    statusText: serverText('ok'),
    raw: { name: `ns30012${i}` },
  }));
}

function listIdsOnly(api: FakeApi): void {
  api.on({ method: 'listOrders', answer: () => ({ items: [], ids: api.orders.map((o) => o.id) }) });
}

describe('a list of bare ids (unit, in memory)', () => {
  let clock: FakeClock;
  let store: Store;
  let api: FakeApi;

  beforeEach(async () => {
    clock = new FakeClock();
    ({ store, api } = storeOnFake(clock));
    api.orders = servers(20);
    listIdsOnly(api);
    await store.keyChanged();
  });
  afterEach(() => store.dispose());

  it('reads each listed id at the single-order path, in the background lane, and shows the orders', async () => {
    await store.refresh(['orders'], 'user');
    assert.equal(store.orders.size, 20);
    assert.equal(plain(store.orders.get(api.orders[3]?.id ?? '')?.label ?? ''), 'server-3');
    assert.equal(store.orders.all[0]?.state, 'running');
    const reads = api.callsTo('getOrder');
    assert.equal(reads.length, 20);
    assert.ok(reads.every((c) => c.priority === 'background'));
    assert.deepEqual(store.listCoverage('orders')?.ids, { count: 20, failed: 0, notYet: 0 });
  });

  it('re-reads known ids only a tenth at a time once they are ten minutes old; all of them on the user’s Refresh', async () => {
    await store.refresh(['orders'], 'user');
    api.clearCalls();
    await store.refresh(['orders'], 'background');
    assert.deepEqual(api.callsTo('getOrder'), [], 'fresh details are not read again');
    await clock.advance(10 * 60_000);
    await store.refresh(['orders'], 'background');
    assert.equal(api.callsTo('getOrder').length, 2);
    api.clearCalls();
    await store.refresh(['orders'], 'user');
    assert.equal(api.callsTo('getOrder').length, 20);
  });

  it('tells no rename when a server first shown by its id alone gets its details', async () => {
    api.orders = servers(150);
    const detector = new OutsideChangeDetector(store, () => clock.now());
    await store.refresh(['orders'], 'user');
    assert.equal(store.listCoverage('orders')?.ids?.notYet, 50, 'a hundred read, the rest shown by id');
    assert.deepEqual(detector.check(), [], 'the baseline');
    await store.refresh(['orders'], 'user');
    assert.equal(store.listCoverage('orders')?.ids?.notYet, 0);
    assert.deepEqual(detector.check(), []);
  });

  it('costs at most 5 requests a minute while the view is open and idle, with 20 servers', async () => {
    const scheduler = new Scheduler(store, { refreshSeconds: 60, watchMinutes: 5 }, clock);
    scheduler.setVisibility({ ordersVisible: true, invoicesVisible: false, focused: true });
    await clock.advance(60_000);
    api.clearCalls();
    const minutes = 60;
    for (let i = 0; i < minutes * 6; i++) await clock.advance(10_000);
    const orderReads = api.calls.filter((c) => c.method === 'listOrders' || c.method === 'getOrder').length;
    scheduler.dispose();
    assert.ok(orderReads / minutes <= 5, `${orderReads} order requests in ${minutes} min`);
    assert.ok(orderReads / minutes >= 2, 'known details are read again');
  });

  for (const fail of ['notFound', 'server'] as const) {
    it(`backs off each server whose details fail (${fail === 'server' ? '500' : '404'}), doubling to 10 minutes: 20 of them cost at most 5 requests a minute idle`, async () => {
      api.on({ method: 'getOrder', fail, failFields: { status: fail === 'server' ? 500 : 404 } });
      const scheduler = new Scheduler(store, { refreshSeconds: 60, watchMinutes: 5 }, clock);
      scheduler.setVisibility({ ordersVisible: true, invoicesVisible: false, focused: true });
      const first = api.orders[0]?.id ?? '';
      const start = clock.now();
      const asked: number[] = [];
      for (let passed = 0; passed < 60 * 60_000; passed += 10_000) {
        const before = api.callsTo('getOrder', first).length;
        await clock.advance(10_000);
        if (api.callsTo('getOrder', first).length > before) asked.push(Math.round((clock.now() - start) / 60_000));
      }
      scheduler.dispose();
      const gaps = asked.slice(1).map((at, i) => at - (asked[i] ?? 0));
      assert.deepEqual(gaps.slice(0, 6), [1, 2, 4, 8, 10, 10], `asked at minutes ${asked.join(', ')}`);
      assert.ok(api.calls.length / 60 <= 5, `${api.calls.length} requests in 60 minutes`);
      assert.equal(store.orders.get(first)?.detailsMissing, 'failed');
      assert.deepEqual(store.listCoverage('orders')?.ids, { count: 20, failed: 20, notYet: 0 });
      api.clearCalls();
      await store.refresh(['orders'], 'user');
      assert.equal(api.callsTo('getOrder').length, 20, "the user's Refresh asks them all");
    });
  }

  it('reads at most 100 in one refresh and says how many are shown by id only', async () => {
    api.orders = servers(130).map((o, i) => ({ ...o, id: `srv-${i}` }));
    await store.refresh(['orders'], 'user');
    assert.equal(api.callsTo('getOrder').length, 100);
    assert.equal(store.orders.size, 130);
    assert.equal(store.orders.get('srv-120')?.detailsMissing, 'notYet');
    assert.equal(store.orders.get('srv-120')?.state, 'unknown');
    assert.deepEqual(store.listCoverage('orders')?.ids, { count: 130, failed: 0, notYet: 30 });
    await store.refresh(['orders'], 'background');
    assert.equal(store.orders.get('srv-120')?.detailsMissing, undefined, 'the rest is read in the next refresh');
  });

  it('shows an order whose details cannot be read by its id, and says which', async () => {
    const broken = api.orders[5]?.id ?? '';
    api.on({ method: 'getOrder', id: broken, fail: 'badResponse' });
    await store.refresh(['orders'], 'user');
    assert.equal(store.orders.get(broken)?.detailsMissing, 'failed');
    assert.equal(plain(store.orders.get(broken)?.label ?? ''), `#${broken}`);
    assert.deepEqual(store.listCoverage('orders')?.ids, { count: 20, failed: 1, notYet: 0 });
  });

  it('tells invoices listed as bare ids apart from no invoices', async () => {
    api.on({ method: 'listInvoices', answer: () => ({ items: [], ids: ['in-1', 'in-2', 'in-3'] }) });
    await store.refresh(['invoices'], 'user');
    assert.deepEqual(store.invoices.value, []);
    assert.deepEqual(store.listCoverage('invoices')?.ids, { count: 3, failed: 0, notYet: 0, noDetails: true });
  });
});

describe('a settling order whose answers cannot be read (unit, in memory)', () => {
  let clock: FakeClock;
  let store: Store;
  let api: FakeApi;
  let settled: Settled[];

  beforeEach(async () => {
    clock = new FakeClock();
    ({ store, api } = storeOnFake(clock));
    await store.keyChanged();
    await store.refresh(['orders'], 'user');
    settled = [];
    store.onDidSettle((s) => settled.push(s));
  });
  afterEach(() => store.dispose());

  it('gives up after a few unreadable answers, reads the list once, and says the state could not be read', async () => {
    const unreadable = new ApiError('badResponse', 'Expected an order with an id field (id, order_id, uuid…).', {
      reason: { rule: 'missingId', what: 'order' },
    });
    api.on({ method: 'getOrder', fail: unreadable });
    api.transitionMs = 60_000;
    await store.runAction('1001', 'stop');
    api.clearCalls();
    for (let i = 0; i < 10; i++) await clock.advance(1_000);
    assert.equal(store.pending('1001'), undefined, 'the row is busy no longer');
    assert.equal(api.callsTo('getOrder').length, MAX_UNREADABLE_POLLS);
    assert.equal(api.callsTo('listOrders').length, 1, 'the list is read once');
    assert.deepEqual(
      settled.map((s) => [s.order.id, s.outcome, s.asExpected]),
      [['1001', 'unreadable', false]],
    );
    api.clearCalls();
    for (let i = 0; i < 60; i++) await clock.advance(1_000);
    assert.deepEqual(api.calls, [], 'no more polls');
  });

  it('does not call a restart done when an unread server is running as before and busy was never seen', async () => {
    api.on({ method: 'getOrder', fail: 'badResponse' });
    api.on({ method: 'orderAction', answer: () => ({}) });
    await store.runAction('1001', 'restart');
    for (let i = 0; i < 10; i++) await clock.advance(1_000);
    assert.deepEqual(
      settled.map((s) => [s.order.id, s.outcome, s.order.state]),
      [['1001', 'unreadable', 'running']],
    );
  });

  it('tells the truth the list shows when it shows the state aimed for', async () => {
    api.on({ method: 'getOrder', fail: 'badResponse' });
    api.transitionMs = 1_500;
    await store.runAction('1001', 'stop');
    for (let i = 0; i < 10; i++) await clock.advance(1_000);
    assert.deepEqual(
      settled.map((s) => [s.order.id, s.outcome, s.order.state]),
      [['1001', 'asExpected', 'stopped']],
    );
  });
});

describe("the 'ids' dialect, through the real client against the mock API (unit)", () => {
  let mock: MockApi;
  beforeEach(async () => {
    mock = await startMockApi({ shape: 'ids', transitionMs: 1_500, quiet: true });
  });
  afterEach(() => mock.close());

  it('reads every server at its own path, its state, address and renewal; bills as ids only; the balance', async () => {
    const clock = new FakeClock(Date.now());
    const { store } = storeFor(mock, clock);
    await store.keyChanged();
    await store.refresh(['orders', 'invoices', 'balance'], 'user');
    await idle(store);
    const byName = new Map(store.orders.all.map((o) => [plain(o.label), o]));
    assert.equal(store.orders.size, mock.state.orders.length);
    assert.equal(byName.get('web-frontend-01')?.state, 'running');
    assert.equal(byName.get('web-frontend-01')?.address, '203.0.113.10');
    assert.equal(byName.get('staging-box')?.state, 'stopped');
    assert.equal(byName.get('legacy-mail')?.state, 'suspended');
    assert.equal(byName.get('analytics-worker')?.state, 'busy');
    assert.deepEqual(byName.get('web-frontend-01')?.renewal?.cycle, { kind: 'every', unit: 'month', count: 1 });
    const singleReads = apiRequests(mock).filter((r) => r.route === 'GET /api/v1/orders/:id');
    assert.equal(singleReads.length, mock.state.orders.length);
    assert.deepEqual(store.listCoverage('invoices')?.ids, {
      count: mock.state.invoices.length,
      failed: 0,
      notYet: 0,
      noDetails: true,
    });
    assert.equal(store.balance.value?.amount, 42.5);
    assert.equal(store.balance.value?.currency, 'EUR');
    const staging = byName.get('staging-box');
    assert.ok(staging);
    await store.runAction(staging.id, 'start');
    // The mock moves the server on in real time; the store polls it on the fake clock.
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    await simulate(clock, store, 5_000);
    assert.equal(store.orders.get(staging.id)?.state, 'running');
    assert.equal(store.pending(staging.id), undefined);
    store.dispose();
  });
});

describe('OVHcloud’s documented answers, through the real client and the store (unit)', () => {
  it('shows the server the list names by id, with the details read at its path', async () => {
    const dir = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'providers', 'ovhcloud');
    const file = (name: string): string => readFileSync(join(dir, name), 'utf8');
    const server = await ScriptedServer.start(({ url }) =>
      url === '/api/v1/orders' ? json(JSON.parse(file('orders.json'))) : json(JSON.parse(file('order.json'))),
    );
    const clock = new FakeClock(Date.now());
    const { store } = storeFor({ url: server.url } as MockApi, clock);
    await store.keyChanged();
    await store.refresh(['orders'], 'user');
    const [only] = store.orders.all;
    assert.equal(store.orders.size, 1);
    assert.equal(only?.id, 'ns3001234.ip-203-0-113.eu');
    assert.equal(only?.state, 'running');
    assert.equal(only?.address, '203.0.113.34');
    assert.deepEqual(
      server.requests.map((r) => r.url),
      ['/api/v1/orders', '/api/v1/orders/ns3001234.ip-203-0-113.eu'],
    );
    store.dispose();
    await server.close();
  });
});
