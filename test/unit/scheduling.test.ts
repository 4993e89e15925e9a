import assert from 'node:assert/strict';
import { type OrderAction } from '../../src/api/models';
import { pollDelayMs, settleVerdict } from '../../src/store/orders/orderSettling';
import { MAX_BACKOFF_MS, RECENT_FOCUS_MS, Scheduler } from '../../src/store/Scheduler';
import { type Store } from '../../src/store/Store';
import { type FakeApi, storeOnFake } from './helpers/FakeApi';
import { FakeClock, flush } from './helpers/FakeClock';
import { serverText } from '../../src/util/serverText';

describe('background refresh and settling (unit)', () => {
  describe('settling rules', () => {
    const order = (state: 'running' | 'stopped' | 'busy') => ({ id: '1', label: serverText('x'), state, raw: {} });
    const verdict = (action: OrderAction, state: 'running' | 'stopped' | 'busy', age: number, sawBusy = false) =>
      settleVerdict(action, order(state), age, sawBusy);

    it('settles a start when the order runs and a stop when it is stopped', () => {
      assert.equal(verdict('start', 'running', 100), 'settled');
      assert.equal(verdict('stop', 'stopped', 100), 'settled');
      assert.equal(verdict('stop', 'busy', 100), 'waiting');
    });

    it('waits for proof of progress before settling a restart or reinstall', () => {
      assert.equal(verdict('restart', 'running', 100), 'waiting');
      assert.equal(verdict('restart', 'running', 100, true), 'settled');
      assert.equal(verdict('reinstall', 'running', 6_000), 'settled');
    });

    it('calls another final state unexpected, and gives up after the bound', () => {
      assert.equal(verdict('start', 'stopped', 100), 'waiting');
      assert.equal(verdict('start', 'stopped', 100, true), 'unexpected');
      assert.equal(verdict('start', 'stopped', 31_000), 'unexpected');
      assert.equal(verdict('stop', 'busy', 16 * 60_000), 'gaveUp');
    });

    it('polls fast first, then backs off', () => {
      assert.deepEqual([0, 9_000, 30_000, 120_000, 600_000].map(pollDelayMs), [1_000, 1_000, 2_000, 5_000, 15_000]);
    });
  });

  describe('the scheduler of an account (in memory, fake clock)', () => {
    let api: FakeApi;
    let clock: FakeClock;
    let store: Store;
    let scheduler: Scheduler;

    beforeEach(async () => {
      clock = new FakeClock();
      ({ store, api } = storeOnFake(clock, {}, { settlingPolls: false }));
      scheduler = new Scheduler(store, { refreshSeconds: 60, watchMinutes: 5 }, clock);
      await store.keyChanged();
      await flush();
    });
    afterEach(() => {
      scheduler.dispose();
      store.dispose();
    });

    /** Simulates `minutes` of idle time and returns the requests made per minute. */
    async function requestsPerMinute(minutes: number): Promise<number> {
      await clock.advance(1_000);
      api.clearCalls();
      await clock.advance(minutes * 60_000);
      return api.calls.length / minutes;
    }

    it('makes at most 2 requests a minute while the view is visible and the window focused', async () => {
      scheduler.setVisibility({ ordersVisible: true, focused: true });
      const rate = await requestsPerMinute(10);
      assert.ok(rate <= 2 && rate >= 1, `rate ${rate}`);
    });

    it('makes at most 0.3 requests a minute while the view is hidden: the watch every 5 minutes, the balance every 10', async () => {
      scheduler.setVisibility({ ordersVisible: false, focused: true });
      const rate = await requestsPerMinute(10);
      assert.ok(rate <= 0.3, `rate ${rate}`);
    });

    it('makes no request while the window is unfocused, and catches up when focus returns', async () => {
      scheduler.setVisibility({ ordersVisible: true, focused: false });
      assert.equal(await requestsPerMinute(5), 0);
      scheduler.setVisibility({ focused: true });
      await flush();
      assert.equal(api.callsTo('listOrders').length, 1);
    });

    it('stops refreshing orders when the interval is 0', async () => {
      scheduler.setIntervals({ refreshSeconds: 0 });
      scheduler.setVisibility({ ordersVisible: true, focused: true });
      await requestsPerMinute(1);
      assert.equal(await requestsPerMinute(5), 0);
    });

    it('retries a first load that failed, an interval later, and recovers', async () => {
      const outage = api.on({ fail: 'server', failFields: { status: 500 } });
      // The watch of the view hidden until now read the list already: the first load is this one.
      await store.startOver();
      scheduler.setVisibility({ ordersVisible: true, focused: true });
      await flush();
      assert.ok(
        store.ordersInfo.error && store.ordersInfo.updatedAt === undefined,
        'the first load of the orders failed',
      );
      outage();
      api.clearCalls();
      await clock.advance(30_000);
      assert.equal(api.callsTo('listOrders').length, 0, 'not retried at once');
      await requestsPerMinute(2);
      assert.equal(store.ordersInfo.error, undefined);
      assert.equal(store.orders.size, api.orders.length);
    });

    it('loads invoices when their view becomes visible, not before', async () => {
      scheduler.setVisibility({ ordersVisible: true, focused: true });
      await requestsPerMinute(1);
      assert.equal(api.callsTo('listInvoices').length, 0);
      scheduler.setVisibility({ invoicesVisible: true });
      await flush();
      assert.equal(api.callsTo('listInvoices').length, 1);
    });

    it('backs off a datum that keeps failing in the background, doubling up to five minutes', async () => {
      scheduler.setVisibility({ ordersVisible: true, focused: true });
      await flush();
      api.clearCalls();
      api.on({ method: 'listOrders', fail: 'server', failFields: { status: 503 } });
      const at: number[] = [];
      const start = clock.now();
      for (let passed = 0; passed < 30 * 60_000; passed += 1_000) {
        const before = api.callsTo('listOrders').length;
        await clock.advance(1_000);
        if (api.callsTo('listOrders').length > before) at.push(clock.now() - start);
      }
      const gaps = at.slice(1).map((t, i) => Math.round((t - (at[i] ?? 0)) / 1000));
      assert.deepEqual(
        gaps.slice(0, 5),
        [60, 120, 240, 300, 300],
        `gaps between background reads: ${gaps.join(', ')} s`,
      );
      assert.ok(gaps.every((gap) => gap <= MAX_BACKOFF_MS / 1000));
    });

    it('still reads at once when the user asks, whatever the backoff', async () => {
      scheduler.setVisibility({ ordersVisible: true, focused: true });
      await flush();
      const outage = api.on({ method: 'listOrders', fail: 'server', failFields: { status: 503 } });
      await clock.advance(60_000 * 4);
      outage();
      api.clearCalls();
      await store.refresh(['orders'], 'user');
      assert.equal(api.callsTo('listOrders').length, 1);
      assert.equal(store.ordersInfo.error, undefined);
    });

    it('watches a window opened with the Orders view hidden: the list at once, then every watchInterval', async () => {
      scheduler.setVisibility({ ordersVisible: false, focused: true });
      for (let passed = 0; passed < 30 * 60_000; passed += 5_000) await clock.advance(5_000);
      const reads = api.callsTo('listOrders').length;
      assert.ok(reads >= 6 && reads <= 7, `${reads} list reads in 30 minutes (watchInterval 5)`);
    });

    describe('the watch of the hidden Orders view', () => {
      const orderLists = (): number => api.callsTo('listOrders').length;
      /** Lets simulated time pass in five-second steps. */
      const simulate = async (ms: number): Promise<void> => {
        for (let passed = 0; passed < ms; passed += 5_000) await clock.advance(Math.min(5_000, ms - passed));
      };

      beforeEach(async () => {
        await store.refresh(['orders'], 'user');
        api.clearCalls();
      });

      it('reads the order list once per interval (5 min by default) while the view is hidden and the window focused', async () => {
        scheduler.setVisibility({ ordersVisible: false, focused: true });
        await simulate(60 * 60_000);
        assert.equal(orderLists(), 12, 'one list read per 5 minutes');
        assert.ok(api.calls.length / 60 <= 0.3, `${api.calls.length} requests in an hour, balance included`);
      });

      it('leaves the visible view to the regular refresh', async () => {
        scheduler.setVisibility({ ordersVisible: true, focused: true });
        await simulate(30 * 60_000);
        assert.equal(orderLists(), 30, 'visible: the refresh interval (a minute)');
        api.clearCalls();
        scheduler.setVisibility({ ordersVisible: false });
        await simulate(5 * 60_000 - 5_000);
        assert.equal(orderLists(), 0, 'hidden again: not before an interval of the watch after the last read');
        await simulate(10_000);
        assert.equal(orderLists(), 1);
      });

      it('goes on for a while after the window loses focus, then rests until focus returns', async () => {
        scheduler.setVisibility({ ordersVisible: false, focused: true });
        scheduler.setVisibility({ focused: false });
        await simulate(RECENT_FOCUS_MS + 60 * 60_000);
        assert.equal(orderLists(), RECENT_FOCUS_MS / (5 * 60_000), 'only within the recent-focus window');
        api.clearCalls();
        scheduler.setVisibility({ focused: true });
        await simulate(5_000);
        assert.equal(orderLists(), 1, 'overdue: read as soon as the window is focused again');
      });

      it('is off at 0, and follows a changed interval', async () => {
        scheduler.setIntervals({ watchMinutes: 0 });
        scheduler.setVisibility({ ordersVisible: false, focused: true });
        await simulate(30 * 60_000);
        assert.equal(orderLists(), 0);
        scheduler.setIntervals({ watchMinutes: 10 });
        await simulate(29 * 60_000);
        assert.equal(orderLists(), 3, 'overdue at once, then every 10 minutes');
      });

      it('joins a refresh under way instead of sending a second list read', async () => {
        scheduler.setVisibility({ ordersVisible: false, focused: true });
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

    it('polls an order settling after an action on its own timer, and stops once it settled', async () => {
      scheduler.setIntervals({ watchMinutes: 0 });
      scheduler.setVisibility({ ordersVisible: false, focused: false });
      await store.refresh(['orders'], 'user');
      const order = store.orders.all[0];
      assert.ok(order);
      api.clearCalls();
      await store.runAction(order.id, order.state === 'running' ? 'stop' : 'start');
      for (let i = 0; i < 120 && store.pending(order.id); i++) await clock.advance(1_000);
      assert.equal(store.pending(order.id), undefined, 'settled');
      const polls = api.callsTo('getOrder').length + api.callsTo('listOrders').length;
      assert.ok(polls >= 1, 'polled while settling, window unfocused');
      api.clearCalls();
      await clock.advance(10 * 60_000);
      assert.equal(api.calls.length, 0, 'nothing after it settled (view hidden, window unfocused)');
    });
  });
});
