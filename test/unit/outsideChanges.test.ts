import assert from 'node:assert/strict';
import { type Store } from '../../src/store/Store';
import { OutsideChangeDetector } from '../../src/watch/outsideChanges';
import { DEMO_API_KEY, type MockApi, startMockApi } from '../mock-api/server';
import { FakeClock } from './helpers/FakeClock';
import { drain, idle, storeFor } from './helpers/storeRig';

describe('changes made outside this window (unit)', function () {
  this.timeout(60_000);
  let mock: MockApi;
  let clock: FakeClock;
  let store: Store;
  let key: { value: string | undefined };
  let detector: OutsideChangeDetector;

  beforeEach(async () => {
    mock = await startMockApi({ transitionMs: 0 });
    clock = new FakeClock(Date.now());
    ({ store, key } = storeFor(mock, clock));
    detector = new OutsideChangeDetector(store);
    await store.keyChanged();
    assert.deepEqual(detector.check(), [], 'nothing before the first list');
    await reload();
    assert.deepEqual(detector.check(), [], 'the first list is the baseline, not news');
  });
  afterEach(async () => {
    store.dispose();
    await mock.close();
  });

  async function reload(): Promise<void> {
    await store.refresh(['orders'], 'background');
    await idle(store);
  }

  const byStatus = (status: string): string => String(mock.state.orders.find((o) => o.status === status)?.id);

  it('tells a running order that stopped, once', async () => {
    const id = byStatus('running');
    mock.state.setOrderStatus(id, 'stopped');
    await reload();
    const changes = detector.check();
    assert.deepEqual(changes.map((c) => [c.kind, c.id]), [['stopped', id]]);
    await reload();
    assert.deepEqual(detector.check(), [], 'the same state again is no news');
  });

  it('tells suspended, disappeared and appeared orders together', async () => {
    const suspended = byStatus('running');
    mock.state.setOrderStatus(suspended, 'suspended');
    const gone = mock.state.orders.splice(mock.state.orders.findIndex((o) => o.status === 'stopped'), 1)[0];
    const added = mock.state.addOrders(1)[0];
    await reload();
    const kinds = detector.check().map((c) => `${c.kind}:${c.id}`).sort();
    assert.deepEqual(kinds, [`appeared:${String(added?.id)}`, `disappeared:${String(gone?.id)}`, `suspended:${suspended}`].sort());
  });

  it('says nothing of the passing busy state, nor of an order that ends where it began', async () => {
    const id = byStatus('running');
    mock.state.setOrderStatus(id, 'restarting');
    await reload();
    assert.deepEqual(detector.check(), []);
    mock.state.setOrderStatus(id, 'running');
    await reload();
    assert.deepEqual(detector.check(), []);
  });

  it('says nothing of the user\'s own action, while it runs or once it settled', async () => {
    const id = byStatus('running');
    const changes: string[] = [];
    const subscription = store.onDidChangeOrders(() => changes.push(...detector.check().map((c) => c.kind)));
    const done = store.runAction(id, 'stop');
    assert.ok(await drain(clock, [done]));
    await drain(clock, [new Promise<void>((resolve) => {
      const check = (): void => (store.pending(id) ? void setTimeout(check, 1) : resolve());
      check();
    })], 60);
    await reload();
    subscription.dispose();
    assert.equal(store.orders.get(id)?.state, 'stopped');
    assert.deepEqual(changes, []);
  });

  it('starts over after a sign-out instead of calling every order gone', async () => {
    key.value = undefined;
    await store.keyChanged();
    assert.equal(store.orders.size, 0);
    assert.deepEqual(detector.check(), []);
    key.value = DEMO_API_KEY;
    await store.keyChanged();
    await reload();
    assert.deepEqual(detector.check(), [], 'the list after signing in again is a new baseline');
  });
});
