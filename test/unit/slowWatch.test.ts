import assert from 'node:assert/strict';
import { type Store } from '../../src/store/Store';
import { RECENT_FOCUS_MS, SlowWatch } from '../../src/watch/SlowWatch';
import { type MockApi, startMockApi } from '../mock-api/server';
import { FakeClock } from './helpers/FakeClock';
import { apiRequests, idle, simulate, storeFor } from './helpers/storeRig';

describe('the slow watch for outside changes (unit, fake clock)', function () {
  this.timeout(120_000);
  let mock: MockApi;
  let clock: FakeClock;
  let store: Store;
  let watch: SlowWatch | undefined;

  beforeEach(async () => {
    mock = await startMockApi();
    clock = new FakeClock(Date.now());
    store = storeFor(mock, clock).store;
    await store.keyChanged();
    await store.refresh(['orders'], 'user');
    await idle(store);
    mock.clearLog();
  });
  afterEach(async () => {
    watch?.dispose();
    store.dispose();
    await mock.close();
  });

  const orderLists = (): number => apiRequests(mock).filter((r) => r.route === 'GET /api/v1/orders').length;

  it('reads the order list once per interval (5 min by default) while the view is hidden and the window focused', async () => {
    watch = new SlowWatch(store, clock, 5, { ordersVisible: false, focused: true });
    await simulate(clock, store, 60 * 60_000);
    assert.equal(orderLists(), 12, 'one list read per 5 minutes');
    assert.equal(apiRequests(mock).length, 12, 'nothing else');
    assert.ok(apiRequests(mock).length / 60 <= 0.2);
  });

  it('leaves the visible view to the regular refresh', async () => {
    watch = new SlowWatch(store, clock, 5, { ordersVisible: true, focused: true });
    await simulate(clock, store, 30 * 60_000);
    assert.equal(orderLists(), 0);
    watch.setConditions({ ordersVisible: false });
    await simulate(clock, store, 5 * 60_000);
    assert.equal(orderLists(), 1, 'hidden again: due an interval after the last read');
  });

  it('goes on for a while after the window loses focus, then rests until focus returns', async () => {
    watch = new SlowWatch(store, clock, 5, { ordersVisible: false, focused: true });
    watch.setConditions({ focused: false });
    await simulate(clock, store, RECENT_FOCUS_MS + 60 * 60_000);
    assert.equal(orderLists(), RECENT_FOCUS_MS / (5 * 60_000), 'only within the recent-focus window');
    mock.clearLog();
    watch.setConditions({ focused: true });
    await simulate(clock, store, 5_000);
    assert.equal(orderLists(), 1, 'overdue: read as soon as the window is focused again');
  });

  it('is off at 0, and follows a changed interval', async () => {
    watch = new SlowWatch(store, clock, 0, { ordersVisible: false, focused: true });
    await simulate(clock, store, 30 * 60_000);
    assert.equal(orderLists(), 0);
    watch.setInterval(10);
    await simulate(clock, store, 30 * 60_000);
    assert.equal(orderLists(), 3);
  });

  it('joins a refresh under way instead of sending a second list read', async () => {
    watch = new SlowWatch(store, clock, 5, { ordersVisible: false, focused: true });
    await clock.advance(5 * 60_000 - 1);
    const user = store.refresh(['orders'], 'user');
    await clock.advance(1);
    await user;
    await idle(store);
    assert.equal(orderLists(), 1);
  });
});
