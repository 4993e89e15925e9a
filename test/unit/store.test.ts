import assert from 'node:assert/strict';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { ActionUnderWay } from '../../src/store/errors';
import { type Store } from '../../src/store/Store';
import { type Failure } from '../../src/store/types';
import { type MockApi, startMockApi } from '../mock-api/server';
import { FakeClock } from './helpers/FakeClock';
import { idle, storeFor } from './helpers/storeRig';

describe('Store (unit, against the mock API)', () => {
  let mock: MockApi;
  let clock: FakeClock;
  let store: Store;
  let key: { value: string | undefined };
  let failures: Failure[];

  beforeEach(async () => {
    mock = await startMockApi({ transitionMs: 50 });
    clock = new FakeClock(Date.now());
    ({ store, key } = storeFor(mock, clock));
    failures = [];
    store.onDidFail((f) => failures.push(f));
    await store.keyChanged();
  });
  afterEach(async () => {
    store.dispose();
    await mock.close();
  });

  const api = (route?: string): MockApi['requests'] =>
    mock.requests.filter((r) => r.rawPath.startsWith('/api/') && (!route || r.route === route));

  it('moves from noKey through loading to ready', async () => {
    key.value = undefined;
    await store.keyChanged();
    assert.equal(store.state, 'noKey');
    key.value = 'demo-0123456789abcdef0123456789abcdef';
    await store.keyChanged();
    assert.equal(store.state, 'loading');
    await store.refresh(['orders'], 'user');
    assert.equal(store.state, 'ready');
    assert.equal(store.orders.size, mock.state.orders.length);
  });

  it('reports noBaseUrl and badBaseUrl without any request', async () => {
    const blank = storeFor(mock, clock, { baseUrl: '' }).store;
    await blank.keyChanged();
    assert.equal(blank.state, 'noBaseUrl');
    const plain = storeFor(mock, clock, { baseUrl: 'http://example.com' }).store;
    await plain.keyChanged();
    assert.equal(plain.state, 'badBaseUrl');
    await plain.refresh(['orders'], 'user');
    assert.equal(api().length, 0);
  });

  it('joins a refresh already under way instead of sending another request', async () => {
    mock.faults.add({ kind: 'delay', delayMs: 50, path: '/api/v1/orders' });
    await Promise.all(Array.from({ length: 30 }, () => store.refresh(['orders', 'balance'], 'user')));
    assert.equal(api('GET /api/v1/orders').length, 1);
    assert.equal(api('GET /api/v1/balance').length, 1);
  });

  it('keeps the last good data when a refresh fails, and reports the failure once per episode', async () => {
    await store.refresh(['orders', 'balance'], 'user');
    mock.faults.add({ kind: 'status', status: 500 });
    for (let i = 0; i < 5; i++) await store.refresh(['orders', 'balance'], 'background');
    assert.equal(store.state, 'ready');
    assert.equal(store.orders.size, mock.state.orders.length);
    assert.ok(store.balance.value);
    assert.equal(store.ordersInfo.error?.kind, 'server');
    assert.equal(failures.filter((f) => f.firstInEpisode).length, 1, 'one episode');
    assert.equal(failures.length, 10);
    mock.faults.clear();
    await store.refresh(['orders', 'balance'], 'background');
    assert.equal(store.ordersInfo.error, undefined);
    mock.faults.add({ kind: 'status', status: 500 });
    await store.refresh(['orders'], 'background');
    assert.equal(failures.filter((f) => f.firstInEpisode).length, 2, 'a new outage is a new episode');
  });

  it('goes to unreachable when the first load fails, and to ready once it recovers', async () => {
    mock.faults.add({ kind: 'reset' });
    // Reads are retried on a reset, with backoff on the fake clock: move it while they wait.
    const attempt = store.refresh(['orders', 'balance'], 'background');
    let done = false;
    void attempt.then(() => (done = true));
    while (!done) {
      await clock.advance(100);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    assert.equal(store.state, 'unreachable');
    mock.faults.clear();
    await store.refresh(['orders'], 'user');
    assert.equal(store.state, 'ready');
  });

  it('goes to invalidKey when the key is rejected, and stops settling polls', async () => {
    await store.refresh(['orders'], 'user');
    await store.runAction('1003', 'start');
    assert.equal(store.pending('1003')?.phase, 'settling');
    mock.setKeys(['other']);
    await store.refresh(['orders'], 'background');
    assert.equal(store.state, 'invalidKey');
    assert.equal(store.orders.size, mock.state.orders.length, 'data is kept, the views hide it');
    mock.clearLog();
    await clock.advance(120_000);
    await idle(store);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(api('GET /api/v1/orders/:id').length, 0, 'no settling poll after the key was rejected');
  });

  it('drops answers that arrive after the key changed', async () => {
    mock.faults.add({ kind: 'delay', delayMs: 100, path: '/api/v1/orders' });
    const pending = store.refresh(['orders'], 'user');
    key.value = 'demo-second-key-000000000000000000';
    mock.setKeys([key.value, 'demo-0123456789abcdef0123456789abcdef']);
    await store.keyChanged();
    await pending;
    assert.equal(store.orders.size, 0, "the old key's orders never appear");
    assert.equal(store.state, 'loading');
  });

  it('ignores the echo of the key it already uses', async () => {
    await store.refresh(['orders'], 'user');
    await store.keyChanged();
    assert.equal(store.orders.size, mock.state.orders.length);
  });

  it('runs an action once, polls the order until it settles, and announces the result', async () => {
    await store.refresh(['orders'], 'user');
    const settled: unknown[] = [];
    store.onDidSettle((s) => settled.push(s));
    await store.runAction('1003', 'start');
    assert.equal(store.pending('1003')?.phase, 'settling');
    await assert.rejects(store.runAction('1003', 'start'), ActionUnderWay);
    for (let i = 0; i < 10 && store.pending('1003'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 60));
      await clock.advance(1_000);
      await idle(store);
    }
    assert.equal(store.pending('1003'), undefined);
    assert.equal(store.orders.get('1003')?.state, 'running');
    assert.equal(api('POST /api/v1/orders/:id/action').length, 1);
    assert.equal(settled.length, 1);
  });

  it('keeps one POST per action when the order leaves the list and comes back while the POST is in flight', async () => {
    await store.refresh(['orders'], 'user');
    mock.faults.add({ kind: 'delay', method: 'POST', delayMs: 300, times: 1 });
    const first = store.runAction('1003', 'reinstall');
    const saved = mock.state.orders.splice(
      mock.state.orders.findIndex((o) => String(o.id) === '1003'),
      1,
    );
    await store.refresh(['orders'], 'user');
    assert.equal(store.orders.get('1003'), undefined, 'the order is gone from the list');
    mock.state.orders.push(...saved);
    await clock.advance(3_000);
    await store.refresh(['orders'], 'user');
    assert.ok(store.orders.get('1003'), 'the order is back');
    assert.ok(store.pending('1003'), 'its action is still under way');
    await assert.rejects(store.runAction('1003', 'reinstall'), ActionUnderWay);
    await first;
    assert.equal(api('POST /api/v1/orders/:id/action').length, 1);
  });

  it('polls the list, not each order, when several orders settle at once', async () => {
    await store.refresh(['orders'], 'user');
    await Promise.all([
      store.runAction('1003', 'start'),
      store.runAction('1001', 'stop'),
      store.runAction('1002', 'restart'),
    ]);
    mock.clearLog();
    await new Promise((resolve) => setTimeout(resolve, 60));
    await clock.advance(1_000);
    await idle(store);
    assert.deepEqual(
      api().map((r) => r.route),
      ['GET /api/v1/orders'],
    );
  });

  it('clears the pending state and reports a refused action', async () => {
    await store.refresh(['orders'], 'user');
    await assert.rejects(store.runAction('1003', 'stop'), { kind: 'invalidRequest', status: 409 });
    assert.equal(store.pending('1003'), undefined);
  });

  it('does not poll an action whose answer already shows it settled', async () => {
    const server = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          req.method === 'POST'
            ? { order: { id: 7, name: 'quick', status: 'running' } }
            : [{ id: 7, name: 'quick', status: 'stopped' }],
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const seen: string[] = [];
    server.on('request', (req: http.IncomingMessage) => seen.push(`${req.method} ${req.url}`));
    const quick = storeFor(
      { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } as MockApi,
      clock,
    ).store;
    try {
      await quick.keyChanged();
      await quick.refresh(['orders'], 'user');
      await quick.runAction('7', 'start');
      assert.equal(quick.pending('7'), undefined, 'settled by the answer itself');
      await clock.advance(60_000);
      await idle(quick);
      assert.deepEqual(seen, ['GET /api/v1/orders', 'POST /api/v1/orders/7/action'], 'no poll after that');
    } finally {
      quick.dispose();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('stops polling an order whose polls keep failing, and frees it, after the bound', async () => {
    await store.refresh(['orders'], 'user');
    await store.runAction('1003', 'start');
    mock.faults.add({ kind: 'status', status: 500, path: '/api/v1/orders/:id' });
    for (let minute = 0; minute < 16; minute++) {
      for (let step = 0; step < 4; step++) {
        await clock.advance(15_000);
        await idle(store);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    assert.equal(store.pending('1003'), undefined);
    mock.clearLog();
    await clock.advance(120_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(api('GET /api/v1/orders/:id').length, 0, 'no more polls');
  });

  it('frees the orders of actions under way when the key is rejected', async () => {
    await store.refresh(['orders'], 'user');
    await store.runAction('1003', 'start');
    assert.ok(store.pending('1003'));
    mock.setKeys(['someone-else']);
    await store.refresh(['orders'], 'background');
    assert.equal(store.state, 'invalidKey');
    assert.equal(store.pending('1003'), undefined, 'not left spinning');
  });
});
