import assert from 'node:assert/strict';
import { type Store } from '../../src/store/Store';
import { OutsideChangeDetector, OWN_ACTION_GRACE_MS } from '../../src/watch/outsideChanges';
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
    detector = new OutsideChangeDetector(store, () => clock.now());
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
    assert.deepEqual(
      changes.map((c) => [c.kind, c.id]),
      [['stopped', id]],
    );
    await reload();
    assert.deepEqual(detector.check(), [], 'the same state again is no news');
  });

  it('tells suspended, disappeared and appeared orders together', async () => {
    const suspended = byStatus('running');
    mock.state.setOrderStatus(suspended, 'suspended');
    const gone = mock.state.orders.splice(
      mock.state.orders.findIndex((o) => o.status === 'stopped'),
      1,
    )[0];
    const added = mock.state.addOrders(1)[0];
    await reload();
    const kinds = detector
      .check()
      .map((c) => `${c.kind}:${c.id}`)
      .sort();
    assert.deepEqual(
      kinds,
      [`appeared:${String(added?.id)}`, `disappeared:${String(gone?.id)}`, `suspended:${suspended}`].sort(),
    );
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

  it("says nothing of the user's own action, while it runs or once it settled", async () => {
    const id = byStatus('running');
    const changes: string[] = [];
    const subscription = store.onDidChangeOrders(() => changes.push(...detector.check().map((c) => c.kind)));
    const done = store.runAction(id, 'stop');
    assert.ok(await drain(clock, [done]));
    await drain(
      clock,
      [
        new Promise<void>((resolve) => {
          const check = (): void => (store.pending(id) ? void setTimeout(check, 1) : resolve());
          check();
        }),
      ],
      60,
    );
    await reload();
    subscription.dispose();
    assert.equal(store.orders.get(id)?.state, 'stopped');
    assert.deepEqual(changes, []);
  });

  it("says nothing when the list read that ends the user's actions shows their result (several at once)", async () => {
    // Several settling orders are polled with one list read, and the store ends their actions before it announces
    // that list: the change arrives with nothing pending any more.
    mock.setTransitionMs(300);
    const ids = mock.state.orders.filter((o) => o.status === 'running').map((o) => String(o.id));
    assert.equal(ids.length, 2);
    const changes: string[] = [];
    const subscription = store.onDidChangeOrders(() =>
      changes.push(...detector.check().map((c) => `${c.kind}:${c.id}`)),
    );
    assert.ok(
      await drain(
        clock,
        ids.map((id) => store.runAction(id, 'stop')),
      ),
    );
    assert.ok(
      ids.every((id) => store.pending(id)),
      'still settling: the answers said stopping',
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    for (let i = 0; i < 20 && ids.some((id) => store.pending(id)); i++) {
      await clock.advance(1_000);
      await idle(store);
    }
    subscription.dispose();
    assert.deepEqual(
      ids.map((id) => [store.pending(id), store.orders.get(id)?.state]),
      ids.map(() => [undefined, 'stopped']),
    );
    assert.deepEqual(changes, []);
  });

  it("tells an outside change of the same order once the grace after the user's action has passed", async () => {
    const id = byStatus('running');
    const changes: string[] = [];
    // As the notifier does: a check on every change the store announces.
    const subscription = store.onDidChangeOrders(() => changes.push(...detector.check().map((c) => c.kind)));
    assert.ok(await drain(clock, [store.runAction(id, 'stop')]));
    await drain(
      clock,
      [
        new Promise<void>((resolve) => {
          const check = (): void => (store.pending(id) ? void setTimeout(check, 1) : resolve());
          check();
        }),
      ],
      60,
    );
    await reload();
    assert.deepEqual(changes, []);
    await clock.advance(OWN_ACTION_GRACE_MS + 1);
    mock.state.setOrderStatus(id, 'running');
    await reload();
    subscription.dispose();
    assert.deepEqual(changes, ['running']);
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
