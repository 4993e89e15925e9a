import assert from 'node:assert/strict';
import { type Store } from '../../src/store/Store';
import { RECENT_FOCUS_MS, SlowWatch } from '../../src/watch/SlowWatch';
import { type FakeApi, storeOnFake } from './helpers/FakeApi';
import { FakeClock, flush } from './helpers/FakeClock';

describe('the slow watch for outside changes (unit, in memory, fake clock)', () => {
  let api: FakeApi;
  let clock: FakeClock;
  let store: Store;
  let watch: SlowWatch | undefined;

  beforeEach(async () => {
    clock = new FakeClock();
    ({ store, api } = storeOnFake(clock));
    await store.keyChanged();
    await store.refresh(['orders'], 'user');
    api.clearCalls();
  });
  afterEach(() => {
    watch?.dispose();
    store.dispose();
  });

  const orderLists = (): number => api.callsTo('listOrders').length;
  /** Lets simulated time pass in five-second steps. */
  const simulate = async (ms: number): Promise<void> => {
    for (let passed = 0; passed < ms; passed += 5_000) await clock.advance(Math.min(5_000, ms - passed));
  };

  it('reads the order list once per interval (5 min by default) while the view is hidden and the window focused', async () => {
    watch = new SlowWatch(store, clock, 5, { ordersVisible: false, focused: true });
    await simulate(60 * 60_000);
    assert.equal(orderLists(), 12, 'one list read per 5 minutes');
    assert.equal(api.calls.length, 12, 'nothing else');
    assert.ok(api.calls.length / 60 <= 0.2);
  });

  it('leaves the visible view to the regular refresh', async () => {
    watch = new SlowWatch(store, clock, 5, { ordersVisible: true, focused: true });
    await simulate(30 * 60_000);
    assert.equal(orderLists(), 0);
    watch.setConditions({ ordersVisible: false });
    await simulate(5 * 60_000);
    assert.equal(orderLists(), 1, 'hidden again: due an interval after the last read');
  });

  it('goes on for a while after the window loses focus, then rests until focus returns', async () => {
    watch = new SlowWatch(store, clock, 5, { ordersVisible: false, focused: true });
    watch.setConditions({ focused: false });
    await simulate(RECENT_FOCUS_MS + 60 * 60_000);
    assert.equal(orderLists(), RECENT_FOCUS_MS / (5 * 60_000), 'only within the recent-focus window');
    api.clearCalls();
    watch.setConditions({ focused: true });
    await simulate(5_000);
    assert.equal(orderLists(), 1, 'overdue: read as soon as the window is focused again');
  });

  it('is off at 0, and follows a changed interval', async () => {
    watch = new SlowWatch(store, clock, 0, { ordersVisible: false, focused: true });
    await simulate(30 * 60_000);
    assert.equal(orderLists(), 0);
    watch.setInterval(10);
    await simulate(30 * 60_000);
    assert.equal(orderLists(), 3);
  });

  it('joins a refresh under way instead of sending a second list read', async () => {
    watch = new SlowWatch(store, clock, 5, { ordersVisible: false, focused: true });
    await clock.advance(5 * 60_000 - 1);
    // The user's read is still under way when the watch is due.
    api.on({ method: 'listOrders', delayMs: 10, times: 1 });
    const user = store.refresh(['orders'], 'user');
    await clock.advance(1);
    assert.equal(store.ordersInfo.loading, true, 'the read is under way when the watch is due');
    await clock.advance(10);
    await user;
    await flush();
    assert.equal(orderLists(), 1);
    await simulate(5 * 60_000 - 20);
    assert.equal(orderLists(), 1, 'the next watch read is an interval after that one');
  });
});
