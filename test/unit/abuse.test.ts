import assert from 'node:assert/strict';
import { ApiClient } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { ORDER_ACTIONS } from '../../src/api/models';
import { DEMO_API_KEY, type MockApi, startMockApi } from '../mock-api/server';
import { FakeClock } from './helpers/FakeClock';
import { drain, idle, storeFor } from './helpers/storeRig';

/** The most requests the mock received in any rolling window of `windowMs`. */
function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] ?? 0) - (sorted[j] ?? 0) >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('the rate limit under abuse (unit)', function () {
  this.timeout(60_000);
  let mock: MockApi;

  afterEach(() => mock.close());

  it('a scripted heavy session on a controllable clock causes no 429 and no window over 120', async () => {
    const clock = new FakeClock(Date.now());
    mock = await startMockApi({
      now: () => clock.now(),
      rateLimit: { limit: 120, windowMs: 60_000 },
      transitionMs: 500,
    });
    const { store } = storeFor(mock, clock, { requestsPerMinute: 120 });
    await store.keyChanged();
    const calls: Array<Promise<unknown>> = [];
    const swallow = (p: Promise<unknown>): void => void calls.push(p.catch(() => undefined));
    // Ten simulated minutes of a user who clicks everything, all the time.
    for (let second = 0; second < 600; second++) {
      for (let i = 0; i < 5; i++) swallow(store.refresh(['orders', 'balance', 'invoices', 'account'], 'user'));
      if (second % 3 === 0) {
        for (const order of mock.state.orders) swallow(store.orderDetails(String(order.id), 0));
      }
      if (second % 10 === 0) {
        for (const order of mock.state.orders) {
          for (const action of ORDER_ACTIONS) swallow(store.runAction(String(order.id), action));
        }
      }
      await clock.advance(1_000);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    // Let the queue drain: every call must end, none may hang.
    assert.ok(await drain(clock, calls), 'every call ended');
    await idle(store);
    store.dispose();
    const api = mock.requests.filter((r) => r.rawPath.startsWith('/api/'));
    assert.ok(api.length > 600, `a heavy session: ${api.length} requests`);
    assert.equal(api.filter((r) => r.status === 429).length, 0, 'no 429');
    assert.ok(
      busiestWindow(
        api.map((r) => r.time),
        60_000,
      ) <= 120,
      `busiest window ${busiestWindow(
        api.map((r) => r.time),
        60_000,
      )}`,
    );
  });

  it('holds in real time with a short window set on the mock and the client alike', async () => {
    mock = await startMockApi({ rateLimit: { limit: 10, windowMs: 1_500 } });
    const api = new ApiClient({
      baseUrl: mock.url,
      getKey: () => DEMO_API_KEY,
      userAgent: 'abuse-test',
      requestsPerMinute: 10,
      // A tenth of a second of slack, as the real limiter keeps a second for a minute.
      limiters: new LimiterRegistry(1_600),
    });
    const started = Date.now();
    await Promise.all(Array.from({ length: 35 }, (_, i) => api.getOrder(`burst-${i}`).catch(() => undefined)));
    await api.dispose();
    const requests = mock.requests.filter((r) => r.rawPath.startsWith('/api/'));
    assert.equal(requests.length, 35);
    assert.equal(requests.filter((r) => r.status === 429).length, 0);
    assert.ok(
      busiestWindow(
        requests.map((r) => r.time),
        1_500,
      ) <= 10,
    );
    assert.ok(Date.now() - started >= 4_500, 'the burst was spread over at least three windows');
  });
});
