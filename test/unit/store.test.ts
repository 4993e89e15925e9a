import assert from 'node:assert/strict';
import { ActionUnderWay, Declined } from '../../src/store/errors';
import { type Store } from '../../src/store/Store';
import { type Failure } from '../../src/store/types';
import { type FakeApi, FAKE_KEY, storeOnFake } from './helpers/FakeApi';
import { FakeClock, flush } from './helpers/FakeClock';
import { serverText } from '../../src/util/serverText';

/**
 * The store's logic against an in-memory fake of our API client, on a fake clock: every step is deterministic and
 * no socket is opened. The real HTTP paths (retries, the limiter, hostile bodies) are the client's, tested against
 * the mock API in apiClient.test.ts and the extension-host suites.
 */
describe('Store (unit, in memory)', () => {
  let clock: FakeClock;
  let store: Store;
  let api: FakeApi;
  let key: { value: string | undefined };
  let failures: Failure[];

  beforeEach(async () => {
    clock = new FakeClock();
    ({ store, api, key } = storeOnFake(clock));
    failures = [];
    store.onDidFail((f) => failures.push(f));
    await store.keyChanged();
  });
  afterEach(() => store.dispose());

  /** Lets `ms` pass on the fake clock, a second at a time, so each poll's answer is taken before the next is due. */
  const pass = async (ms: number): Promise<void> => {
    for (let passed = 0; passed < ms; passed += 1_000) await clock.advance(Math.min(1_000, ms - passed));
  };

  it('moves from noKey through loading to ready', async () => {
    key.value = undefined;
    await store.keyChanged();
    assert.equal(store.state, 'noKey');
    key.value = FAKE_KEY;
    await store.keyChanged();
    assert.equal(store.state, 'loading');
    await store.refresh(['orders'], 'user');
    assert.equal(store.state, 'ready');
    assert.deepEqual(
      store.orders.all.map((o) => o.id),
      api.orders.map((o) => o.id),
    );
  });

  it('reports noBaseUrl and badBaseUrl without any request', async () => {
    const blank = storeOnFake(clock, { baseUrl: '' });
    await blank.store.keyChanged();
    assert.equal(blank.store.state, 'noBaseUrl');
    await blank.store.refresh(['orders'], 'user');
    const plain = storeOnFake(clock, { baseUrl: 'http://example.com' });
    await plain.store.keyChanged();
    assert.equal(plain.store.state, 'badBaseUrl');
    await plain.store.refresh(['orders'], 'user');
    assert.equal(blank.api.calls.length + plain.api.calls.length, 0);
    blank.store.dispose();
    plain.store.dispose();
  });

  it('joins a refresh already under way instead of sending another request', async () => {
    api.on({ method: 'listOrders', delayMs: 50 });
    api.on({ method: 'getBalance', delayMs: 50 });
    const all = Promise.all(Array.from({ length: 30 }, () => store.refresh(['orders', 'balance'], 'user')));
    await clock.advance(50);
    await all;
    assert.equal(api.callsTo('listOrders').length, 1);
    assert.equal(api.callsTo('getBalance').length, 1);
    assert.equal(store.orders.size, api.orders.length);
    assert.ok(store.balance.value);
  });

  it('keeps the last good data when a refresh fails, and reports the failure once per episode', async () => {
    await store.refresh(['orders', 'balance'], 'user');
    const outage = api.on({ fail: 'server', failFields: { status: 500 } });
    for (let i = 0; i < 5; i++) await store.refresh(['orders', 'balance'], 'background');
    assert.equal(store.state, 'ready');
    assert.equal(store.orders.size, api.orders.length);
    assert.ok(store.balance.value);
    assert.equal(store.ordersInfo.error?.kind, 'server');
    assert.equal(failures.filter((f) => f.firstInEpisode).length, 1, 'one episode');
    assert.equal(failures.length, 10);
    outage();
    await store.refresh(['orders', 'balance'], 'background');
    assert.equal(store.ordersInfo.error, undefined);
    assert.equal(store.balance.error, undefined);
    api.on({ fail: 'server', failFields: { status: 500 } });
    await store.refresh(['orders'], 'background');
    assert.equal(failures.filter((f) => f.firstInEpisode).length, 2, 'a new outage is a new episode');
  });

  it('goes to unreachable when the first load fails, and to ready once it recovers', async () => {
    for (const kind of ['network', 'timeout'] as const) {
      const fresh = storeOnFake(clock);
      const outage = fresh.api.on({ fail: kind });
      await fresh.store.keyChanged();
      await fresh.store.refresh(['orders', 'balance'], 'background');
      assert.equal(fresh.store.state, 'unreachable', kind);
      outage();
      await fresh.store.refresh(['orders'], 'user');
      assert.equal(fresh.store.state, 'ready', kind);
      fresh.store.dispose();
    }
  });

  it('goes to invalidKey when the key is rejected, and stops settling polls', async () => {
    await store.refresh(['orders'], 'user');
    await store.runAction('1003', 'start');
    assert.equal(store.pending('1003')?.phase, 'settling');
    await clock.advance(1_000);
    assert.equal(api.callsTo('getOrder', '1003').length, 1, 'the order is polled while it settles');
    api.keys = ['other'];
    await store.refresh(['orders'], 'background');
    assert.equal(store.state, 'invalidKey');
    assert.equal(store.orders.size, api.orders.length, 'data is kept, the views hide it');
    assert.equal(store.pending('1003'), undefined, 'the action is no longer shown as under way');
    api.clearCalls();
    await pass(20 * 60_000);
    assert.deepEqual(api.calls, [], 'no settling poll (nor any request) after the key was rejected');
  });

  it('drops answers that arrive after the key changed', async () => {
    // The answer is already on its way and arrives despite the abort: the store must drop it by itself.
    api.on({ method: 'listOrders', delayMs: 100, ignoresAbort: true, times: 1 });
    const pending = store.refresh(['orders'], 'user');
    key.value = 'fake-second-key-000000000000000000';
    api.keys = [key.value, FAKE_KEY];
    await store.keyChanged();
    await clock.advance(100);
    await pending;
    assert.equal(api.callsTo('listOrders')[0]?.outcome, 'answered', 'the old answer did arrive');
    assert.equal(store.orders.size, 0, "the old key's orders never appear");
    assert.equal(store.ordersInfo.value, undefined);
    assert.equal(store.state, 'loading');
    assert.equal(failures.length, 0);
  });

  it('abandons the requests of the old key when the key changes', async () => {
    api.on({ method: 'listOrders', delayMs: 100, times: 1 });
    const pending = store.refresh(['orders'], 'user');
    key.value = 'fake-second-key-000000000000000000';
    api.keys = [key.value];
    await store.keyChanged();
    await pending;
    assert.equal(api.callsTo('listOrders')[0]?.outcome, 'cancelled');
    assert.equal(store.orders.size, 0);
    assert.equal(failures.length, 0, 'an abandoned request is no failure');
    await store.refresh(['orders'], 'user');
    assert.equal(api.callsTo('listOrders')[1]?.key, key.value, 'the next read uses the new key');
    assert.equal(store.state, 'ready');
  });

  it('ignores the echo of the key it already uses', async () => {
    await store.refresh(['orders'], 'user');
    api.clearCalls();
    await store.keyChanged();
    assert.equal(store.orders.size, api.orders.length);
    assert.equal(store.state, 'ready');
    assert.deepEqual(api.calls, [], 'nothing is fetched again');
  });

  it('runs an action once, polls the order until it settles, and announces the result', async () => {
    await store.refresh(['orders'], 'user');
    const settled: Array<{ id: string; asExpected: boolean }> = [];
    store.onDidSettle((s) => settled.push({ id: s.order.id, asExpected: s.asExpected }));
    await store.runAction('1003', 'start');
    assert.equal(store.pending('1003')?.phase, 'settling');
    await assert.rejects(store.runAction('1003', 'start'), ActionUnderWay);
    await pass(api.transitionMs + 1_000);
    assert.equal(store.pending('1003'), undefined);
    assert.equal(store.orders.get('1003')?.state, 'running');
    assert.equal(api.callsTo('orderAction').length, 1, 'exactly one POST');
    assert.ok(api.callsTo('getOrder', '1003').length >= 3, 'polled while busy');
    assert.deepEqual(settled, [{ id: '1003', asExpected: true }]);
    api.clearCalls();
    await pass(5 * 60_000);
    assert.deepEqual(api.calls, [], 'no poll after it settled');
  });

  it('asks its guard before every action, whoever sends it (a caller it never knew too), and sends only what it lets go', async () => {
    const asked: string[] = [];
    const answers: Array<(go: boolean) => void> = [];
    const guarded = storeOnFake(
      clock,
      {},
      {
        guard: (order, action, source) => {
          asked.push(`${action} ${order.id} ${source ?? 'no source'}`);
          return new Promise((resolve, reject) => answers.push((go) => (go ? resolve() : reject(new Declined('no')))));
        },
      },
    );
    await guarded.store.keyChanged();
    await guarded.store.refresh(['orders'], 'user');
    const first = guarded.store.runAction('1001', 'stop', 'menu');
    const second = guarded.store.runAction('1001', 'stop');
    await flush();
    assert.deepEqual(asked, ['stop 1001 menu', 'stop 1001 no source']);
    assert.equal(guarded.store.pending('1001'), undefined, 'not busy while the question is open');
    answers[0]?.(true);
    answers[1]?.(true);
    await first;
    await assert.rejects(second, ActionUnderWay, 'the question answered twice is still one POST');
    const declined = guarded.store.runAction('1002', 'restart', 'task');
    await flush();
    answers[2]?.(false);
    await assert.rejects(declined, Declined);
    assert.deepEqual(
      guarded.api.callsTo('orderAction').map((c) => c.id),
      ['1001'],
    );
    guarded.store.dispose();
  });

  it('keeps one POST per action when the order leaves the list and comes back while the POST is in flight', async () => {
    await store.refresh(['orders'], 'user');
    api.on({ method: 'orderAction', delayMs: 300, times: 1 });
    const first = store.runAction('1003', 'reinstall');
    const saved = api.orders.filter((o) => o.id === '1003');
    api.orders = api.orders.filter((o) => o.id !== '1003');
    await store.refresh(['orders'], 'user');
    assert.equal(store.orders.get('1003'), undefined, 'the order is gone from the list');
    api.orders.push(...saved);
    await store.refresh(['orders'], 'user');
    assert.ok(store.orders.get('1003'), 'the order is back');
    assert.ok(store.pending('1003'), 'its action is still under way');
    await assert.rejects(store.runAction('1003', 'reinstall'), ActionUnderWay);
    await clock.advance(300);
    await first;
    assert.equal(api.callsTo('orderAction').length, 1);
  });

  it('polls the list, not each order, when several orders settle at once', async () => {
    await store.refresh(['orders'], 'user');
    await Promise.all([
      store.runAction('1003', 'start'),
      store.runAction('1001', 'stop'),
      store.runAction('1002', 'restart'),
    ]);
    api.clearCalls();
    await clock.advance(1_000);
    assert.deepEqual(
      api.calls.map((c) => c.method),
      ['listOrders'],
    );
  });

  it('clears the pending state and reports a refused action', async () => {
    await store.refresh(['orders'], 'user');
    await assert.rejects(store.runAction('1003', 'stop'), { kind: 'invalidRequest', status: 409 });
    assert.equal(store.pending('1003'), undefined);
    assert.equal(failures.at(-1)?.kind, 'action');
    assert.equal(failures.at(-1)?.userInitiated, true);
  });

  it('does not poll an action whose answer already shows it settled', async () => {
    await store.refresh(['orders'], 'user');
    api.on({
      method: 'orderAction',
      answer: (call) => ({ order: { id: call.id ?? '', label: serverText('quick'), state: 'running', raw: {} } }),
    });
    await store.runAction('1003', 'start');
    assert.equal(store.pending('1003'), undefined, 'settled by the answer itself');
    await pass(60_000);
    assert.deepEqual(
      api.calls.map((c) => `${c.method} ${c.id ?? ''}`.trim()),
      ['listOrders', 'orderAction 1003'],
      'no poll after that',
    );
  });

  it('stops polling an order whose polls keep failing, and frees it, after the bound', async () => {
    await store.refresh(['orders'], 'user');
    await store.runAction('1003', 'start');
    api.on({ method: 'getOrder', fail: 'server', failFields: { status: 500 } });
    await pass(14 * 60_000);
    assert.ok(store.pending('1003'), 'still settling within the bound');
    await pass(2 * 60_000);
    assert.equal(store.pending('1003'), undefined);
    api.clearCalls();
    await pass(5 * 60_000);
    assert.deepEqual(api.calls, [], 'no more polls');
  });

  it('frees the orders of actions under way when the key is rejected', async () => {
    await store.refresh(['orders'], 'user');
    await store.runAction('1003', 'start');
    assert.ok(store.pending('1003'));
    api.keys = ['someone-else'];
    await store.refresh(['orders'], 'background');
    assert.equal(store.state, 'invalidKey');
    assert.equal(store.pending('1003'), undefined, 'not left spinning');
  });

  it('sends no request after it is disposed, and drops the answers under way', async () => {
    await store.refresh(['orders'], 'user');
    await store.runAction('1003', 'start');
    api.on({ method: 'getBalance', delayMs: 500, ignoresAbort: true, times: 1 });
    const late = store.refresh(['balance'], 'background');
    await flush();
    assert.equal(api.callsTo('getBalance')[0]?.outcome, undefined, 'the balance read is under way');
    store.dispose();
    await clock.advance(500);
    await late;
    assert.equal(api.callsTo('getBalance')[0]?.outcome, 'answered', 'the answer did arrive');
    assert.equal(store.balance.value, undefined, 'a late answer is dropped');
    assert.ok(api.ended.has(1), 'its client was let go');
    api.clearCalls();
    await pass(20 * 60_000);
    assert.deepEqual(api.calls, [], 'no poll, no refresh');
    // A disposed store builds no client and sends nothing.
    const built = api.clientsBuilt;
    await store.refresh(['orders', 'balance'], 'user');
    assert.deepEqual(api.calls, [], 'no call at all');
    assert.equal(api.clientsBuilt, built, 'no client built');
  });
});
