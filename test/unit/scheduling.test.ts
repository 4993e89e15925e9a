import assert from 'node:assert/strict';
import { type OrderAction } from '../../src/api/models';
import { pollDelayMs, settleVerdict } from '../../src/store/orders/orderSettling';
import { RefreshScheduler } from '../../src/store/RefreshScheduler';
import { type Store } from '../../src/store/Store';
import { type FakeApi, storeOnFake } from './helpers/FakeApi';
import { FakeClock, flush } from './helpers/FakeClock';

describe('background refresh and settling (unit)', () => {
  describe('settling rules', () => {
    const order = (state: 'running' | 'stopped' | 'busy') => ({ id: '1', label: 'x', state, raw: {} });
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

  describe('RefreshScheduler (in memory, fake clock)', () => {
    let api: FakeApi;
    let clock: FakeClock;
    let store: Store;
    let scheduler: RefreshScheduler;

    beforeEach(async () => {
      clock = new FakeClock();
      ({ store, api } = storeOnFake(clock));
      scheduler = new RefreshScheduler(store, 60, clock);
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

    it('makes at most 0.2 requests a minute while the view is hidden', async () => {
      scheduler.setVisibility({ ordersVisible: false, focused: true });
      const rate = await requestsPerMinute(10);
      assert.ok(rate <= 0.2, `rate ${rate}`);
    });

    it('makes no request while the window is unfocused, and catches up when focus returns', async () => {
      scheduler.setVisibility({ ordersVisible: true, focused: false });
      assert.equal(await requestsPerMinute(5), 0);
      scheduler.setVisibility({ focused: true });
      await flush();
      assert.equal(api.callsTo('listOrders').length, 1);
    });

    it('stops refreshing orders when the interval is 0', async () => {
      scheduler.setInterval(0);
      scheduler.setVisibility({ ordersVisible: true, focused: true });
      await requestsPerMinute(1);
      assert.equal(await requestsPerMinute(5), 0);
    });

    it('retries a first load that failed, an interval later, and recovers', async () => {
      const outage = api.on({ fail: 'server', failFields: { status: 500 } });
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
  });
});
