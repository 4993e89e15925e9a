import assert from 'node:assert/strict';
import { type Store } from '../../src/store/Store';
import { OutsideChangeDetector, OWN_ACTION_GRACE_MS, stillSo } from '../../src/store/outsideChanges';
import { type FakeApi, FAKE_KEY, storeOnFake } from './helpers/FakeApi';
import { FakeClock } from './helpers/FakeClock';
import { plain, serverText } from '../../src/util/serverText';

describe('changes made outside this window (unit, in memory, fake clock)', () => {
  let api: FakeApi;
  let clock: FakeClock;
  let store: Store;
  let key: { value: string | undefined };
  let detector: OutsideChangeDetector;

  beforeEach(async () => {
    clock = new FakeClock();
    ({ store, key, api } = storeOnFake(clock));
    api.transitionMs = 0;
    detector = new OutsideChangeDetector(store, () => clock.now());
    await store.keyChanged();
    assert.deepEqual(detector.check(), [], 'nothing before the first list');
    await reload();
    assert.deepEqual(detector.check(), [], 'the first list is the baseline, not news');
  });
  afterEach(() => store.dispose());

  async function reload(): Promise<void> {
    await store.refresh(['orders'], 'background');
  }

  /** Lets the actions under way settle, a second of fake time at a time (polls, then their answers). */
  async function settle(ids: readonly string[], maxSeconds = 60): Promise<void> {
    for (let i = 0; i < maxSeconds && ids.some((id) => store.pending(id)); i++) await clock.advance(1_000);
    assert.ok(
      ids.every((id) => !store.pending(id)),
      'the actions settled',
    );
  }

  const byState = (state: string): string => String(api.orders.find((o) => o.state === state)?.id);

  it('tells a running order that stopped, once', async () => {
    const id = byState('running');
    api.setState(id, 'stopped');
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
    const suspended = byState('running');
    api.setState(suspended, 'suspended');
    const gone = api.orders.find((o) => o.state === 'stopped');
    api.orders = api.orders.filter((o) => o !== gone);
    const added = { id: '2001', label: serverText('server-2001'), state: 'running', raw: { id: 2001 } } as const;
    api.orders.push(added);
    await reload();
    const kinds = detector
      .check()
      .map((c) => `${c.kind}:${c.id}`)
      .sort();
    assert.deepEqual(
      kinds,
      [`appeared:${added.id}`, `disappeared:${String(gone?.id)}`, `suspended:${suspended}`].sort(),
    );
  });

  it('says nothing of the passing busy state, nor of an order that ends where it began', async () => {
    const id = byState('running');
    api.setState(id, 'busy', 'restarting');
    await reload();
    assert.deepEqual(detector.check(), []);
    api.setState(id, 'running');
    await reload();
    assert.deepEqual(detector.check(), []);
  });

  it("says nothing of the user's own action, while it runs or once it settled", async () => {
    const id = byState('running');
    const changes: string[] = [];
    const subscription = store.onDidChangeOrders(() => changes.push(...detector.check().map((c) => c.kind)));
    await store.runAction(id, 'stop');
    await settle([id]);
    await reload();
    subscription.dispose();
    assert.equal(store.orders.get(id)?.state, 'stopped');
    assert.deepEqual(changes, []);
  });

  it("says nothing when the list read that ends the user's actions shows their result (several at once)", async () => {
    // Several settling orders are polled with one list read, and the store ends their actions before it announces
    // that list: the change arrives with nothing pending any more.
    api.transitionMs = 300;
    const ids = api.orders.filter((o) => o.state === 'running').map((o) => o.id);
    assert.equal(ids.length, 2);
    const changes: string[] = [];
    const subscription = store.onDidChangeOrders(() =>
      changes.push(...detector.check().map((c) => `${c.kind}:${c.id}`)),
    );
    await Promise.all(ids.map((id) => store.runAction(id, 'stop')));
    assert.ok(
      ids.every((id) => store.pending(id)),
      'still settling: the answers said stopping',
    );
    api.clearCalls();
    await settle(ids, 20);
    assert.deepEqual([...new Set(api.calls.map((c) => c.method))], ['listOrders'], 'they settled through list reads');
    subscription.dispose();
    assert.deepEqual(
      ids.map((id) => [store.pending(id), store.orders.get(id)?.state]),
      ids.map(() => [undefined, 'stopped']),
    );
    assert.deepEqual(changes, []);
  });

  it("tells an outside change of the same order once the grace after the user's action has passed", async () => {
    const id = byState('running');
    const changes: string[] = [];
    // As the notifier does: a check on every change the store announces.
    const subscription = store.onDidChangeOrders(() => changes.push(...detector.check().map((c) => c.kind)));
    await store.runAction(id, 'stop');
    await settle([id]);
    await reload();
    assert.deepEqual(changes, []);
    await clock.advance(OWN_ACTION_GRACE_MS + 1);
    api.setState(id, 'running');
    await reload();
    subscription.dispose();
    assert.deepEqual(changes, ['running']);
  });

  describe('an account of 300 servers whose provider answers one empty list', () => {
    let all: typeof api.orders;
    beforeEach(async () => {
      all = Array.from({ length: 300 }, (_, i) => ({
        id: String(3000 + i),
        label: serverText(`server-${3000 + i}`),
        state: 'running' as const,
        raw: { id: 3000 + i },
      }));
      api.orders = all;
      await reload();
      detector = new OutsideChangeDetector(store, () => clock.now());
      assert.deepEqual(detector.check(), [], 'the baseline');
      api.orders = [];
      await reload();
    });

    // Before: 300 "disappeared", then 300 "appeared".
    it('and then the list again: no change at all', async () => {
      const told = [...detector.check(), ...detector.check()];
      api.orders = all;
      await reload();
      told.push(...detector.check());
      assert.equal(told.length, 0);
      await reload();
      assert.deepEqual(detector.check(), []);
    });

    it('and the same again at the next read: every server gone, told once', async () => {
      assert.deepEqual(detector.check(), []);
      await clock.advance(60_000);
      await reload();
      const gone = detector.check();
      assert.equal(gone.length, 300);
      assert.ok(gone.every((c) => c.kind === 'disappeared'));
      await reload();
      assert.deepEqual(detector.check(), []);
    });
  });

  it('starts over after a sign-out instead of calling every order gone', async () => {
    key.value = undefined;
    await store.keyChanged();
    assert.equal(store.orders.size, 0);
    assert.deepEqual(detector.check(), []);
    key.value = FAKE_KEY;
    await store.keyChanged();
    await reload();
    assert.deepEqual(detector.check(), [], 'the list after signing in again is a new baseline');
  });

  it('tells a name, address or plan replaced by another, with when it was last seen as before', async () => {
    const id = byState('running');
    const at = api.orders.findIndex((o) => o.id === id);
    const before = { ...api.orders[at]!, address: '203.0.113.5', plan: serverText('VPS S') };
    api.orders[at] = before;
    await reload();
    assert.deepEqual(detector.check(), [], 'a field first read is no change');
    const readBefore = store.ordersInfo.updatedAt;
    await clock.advance(60_000);
    api.orders[at] = { ...before, label: serverText('web-renamed'), address: '198.51.100.7', plan: undefined };
    await reload();
    const changes = detector.check();
    assert.deepEqual(
      changes.map((c) => [c.kind, c.field, c.from, c.to, c.since, c.at]),
      [
        ['edited', 'label', plain(before.label), 'web-renamed', readBefore, clock.now()],
        ['edited', 'address', before.address, '198.51.100.7', readBefore, clock.now()],
      ],
      'a plan the read lacks is no change',
    );
    await reload();
    assert.deepEqual(detector.check(), []);
  });

  it('a change told is no longer so once a read shows otherwise', async () => {
    const id = byState('running');
    api.setState(id, 'stopped');
    await reload();
    const [stopped] = detector.check();
    assert.ok(stopped && stillSo(stopped, store));
    api.setState(id, 'running');
    await reload();
    assert.equal(stillSo(stopped, store), false);
  });
});
