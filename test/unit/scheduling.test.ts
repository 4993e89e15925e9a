import assert from 'node:assert/strict';
import { type OrderAction } from '../../src/api/models';
import { pollDelayMs, settleVerdict } from '../../src/store/orders/orderSettling';
import { RefreshScheduler } from '../../src/store/RefreshScheduler';
import { type Store } from '../../src/store/Store';
import { type MockApi, startMockApi } from '../mock-api/server';
import { FakeClock } from './helpers/FakeClock';
import { apiRequests, idle, simulate, storeFor } from './helpers/storeRig';

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

  describe('RefreshScheduler', function () {
    this.timeout(60_000);
    let mock: MockApi;
    let clock: FakeClock;
    let store: Store;
    let scheduler: RefreshScheduler;

    beforeEach(async () => {
      mock = await startMockApi();
      clock = new FakeClock(Date.now());
      store = storeFor(mock, clock).store;
      scheduler = new RefreshScheduler(store, 60, clock);
      await store.keyChanged();
      await idle(store);
    });
    afterEach(async () => {
      scheduler.dispose();
      store.dispose();
      await mock.close();
    });

    /** Simulates `minutes` of idle time and returns the API requests made per minute. */
    async function requestsPerMinute(minutes: number): Promise<number> {
      await clock.advance(1_000);
      await idle(store);
      mock.clearLog();
      await simulate(clock, store, minutes * 60_000);
      return apiRequests(mock).length / minutes;
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
      await idle(store);
      assert.ok(mock.requests.some((r) => r.route === 'GET /api/v1/orders'));
    });

    it('stops refreshing orders when the interval is 0', async () => {
      scheduler.setInterval(0);
      scheduler.setVisibility({ ordersVisible: true, focused: true });
      await requestsPerMinute(1);
      mock.clearLog();
      assert.equal(await requestsPerMinute(5), 0);
    });

    it('retries a first load that failed, an interval later, and recovers', async () => {
      mock.faults.add({ kind: 'status', status: 500, path: /^\/api\// });
      scheduler.setVisibility({ ordersVisible: true, focused: true });
      await idle(store);
      assert.ok(
        store.ordersInfo.error && store.ordersInfo.updatedAt === undefined,
        'the first load of the orders failed',
      );
      mock.faults.clear();
      await requestsPerMinute(2);
      assert.equal(store.ordersInfo.error, undefined);
      assert.ok(store.orders.size > 0);
    });

    it('loads invoices when their view becomes visible, not before', async () => {
      scheduler.setVisibility({ ordersVisible: true, focused: true });
      await requestsPerMinute(1);
      assert.ok(!mock.requests.some((r) => r.route === 'GET /api/v1/invoices'));
      scheduler.setVisibility({ invoicesVisible: true });
      await idle(store);
      assert.ok(mock.requests.some((r) => r.route === 'GET /api/v1/invoices'));
    });
  });
});
