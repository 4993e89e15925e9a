import assert from 'node:assert/strict';
import { ApiClient } from '../../src/api/ApiClient';
import { LimiterRegistry, type SharedState } from '../../src/api/RateLimiter';
import { Scheduler } from '../../src/store/Scheduler';
import { DEMO_API_KEY, type MockApi, startMockApi } from '../mock-api/server';
import { FakeClock } from './helpers/FakeClock';
import { floodOneKey, sharedState } from './helpers/floodOneKey';
import { apiRequests, drain, idle, storeFor } from './helpers/storeRig';

describe('windows on one key (unit, against the mock API)', function () {
  this.timeout(60_000);
  let mock: MockApi;
  let clock: FakeClock;

  beforeEach(async () => {
    clock = new FakeClock(Date.now());
    mock = await startMockApi({ now: () => clock.now(), rateLimit: { limit: 120, windowMs: 60_000 } });
  });
  afterEach(() => mock.close());

  /** One VS Code window: its own client and its own limiter, as two extension hosts have; `holds`: their globalState. */
  const window = (holds?: SharedState): { api: ApiClient; limiters: LimiterRegistry } => {
    const limiters = new LimiterRegistry(61_000, clock, holds);
    const api = new ApiClient({
      baseUrl: mock.url,
      getKey: () => DEMO_API_KEY,
      userAgent: 'two-windows',
      clock,
      limiters,
      retry: { maxAttempts: 1 },
    });
    return { api, limiters };
  };

  it('stays under the server limit together by following X-RateLimit-Remaining and -Reset', async () => {
    const windows = [window(), window()];
    // Each window wants 100 requests (its own limit) one after the other, as fast as it can: 200 together.
    const calls = windows.map(async ({ api }) => {
      for (let i = 0; i < 100; i++) await api.getBalance().catch((error: unknown) => error);
    });
    assert.ok(await drain(clock, calls, 300), 'every call ended');
    const answers = apiRequests(mock);
    assert.equal(answers.filter((r) => r.status === 429).length, 0, 'no request was refused with 429');
    const times = answers.map((r) => r.time).sort((a, b) => a - b);
    let busiest = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] ?? 0) - (times[j] ?? 0) >= 60_000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    assert.ok(busiest <= 120, `busiest minute: ${busiest}`);
    for (const { limiters } of windows) limiters.dispose();
  });

  for (const retryAfter of [null, '5'] as const) {
    const hold = retryAfter === null ? 61_000 : 5_000;
    it(`one 429 from another tool ${retryAfter === null ? 'without' : 'with'} Retry-After lowers this window's rate for ${hold / 1000} s at most`, async () => {
      const { api, limiters } = window();
      // Normal use, then a 429 this window did not cause (the mock's own limit is far off).
      for (let i = 0; i < 2; i++) await api.getBalance({ priority: 'background' });
      mock.faults.add({ kind: 'rateLimit', retryAfter, times: 1 });
      await assert.rejects(api.getBalance({ priority: 'background' }), { kind: 'rateLimited' });
      await clock.advance(hold);
      const since = clock.now();
      // The extension's default limit is 100: background reads may use 96 of a window, two of them spent already.
      const calls = Array.from({ length: 94 }, (_, i) => api.getOrder(`after-${i}`, { priority: 'background' }));
      const settled = Promise.allSettled(calls);
      for (let step = 0; step < 30 && apiRequests(mock).filter((r) => r.time >= since).length < 94; step++) {
        await clock.advance(100);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const sent = apiRequests(mock).filter((r) => r.time >= since);
      assert.equal(sent.length, 94, `${sent.length} of 94 background reads sent in the 3 s after the hold`);
      assert.equal(sent.filter((r) => r.status === 429).length, 0);
      limiters.dispose();
      await settled;
    });
  }

  it("holds every window of the key while one window's 429 says Retry-After: 5, and the others learn of it", async () => {
    const board = sharedState(clock, 1_000);
    const [first, second] = [window(board()), window(board())];
    assert.ok(first && second);
    await second.api.getBalance({ priority: 'background' });
    mock.faults.add({ kind: 'rateLimit', retryAfter: '5', times: 1 });
    await assert.rejects(first.api.getBalance({ priority: 'background' }), { kind: 'rateLimited' });
    const heldFrom = clock.now();
    // The hold reaches the other window through globalState a second later.
    await clock.advance(1_000);
    const later = second.api.getBalance({ priority: 'background' });
    // After it, that window's background reads only replace its own of the last minute: one, sent a minute ago.
    assert.ok(await drain(clock, [later], 90), 'the read ended');
    const sent = apiRequests(mock).at(-1)?.time ?? 0;
    assert.ok(sent >= heldFrom + 5_000, `the other window sent ${sent - heldFrom} ms into the hold`);
    assert.equal(apiRequests(mock).filter((r) => r.status === 429).length, 1);
    for (const { limiters } of [first, second]) limiters.dispose();
  });

  it('two windows in normal use (a refresh a minute, a Refresh click and an action now and then) meet no 429', async () => {
    const windows = [storeFor(mock, clock).store, storeFor(mock, clock).store];
    const schedulers = windows.map((store) => new Scheduler(store, { refreshSeconds: 60, watchMinutes: 5 }, clock));
    for (const store of windows) await store.keyChanged();
    schedulers.forEach((scheduler) => scheduler.setVisibility({ ordersVisible: true, focused: true }));
    const clicks: Array<Promise<unknown>> = [];
    for (let second = 0; second < 10 * 60; second += 5) {
      if (second % 120 === 0) {
        for (const store of windows) clicks.push(store.refresh(['orders', 'balance', 'account', 'invoices'], 'user'));
      }
      const order = mock.state.orders[0];
      if (second === 300 && order) clicks.push(windows[0]?.runAction(String(order.id), 'restart') ?? Promise.resolve());
      await clock.advance(5_000);
      for (const store of windows) await idle(store);
    }
    await Promise.all(clicks);
    schedulers.forEach((scheduler) => scheduler.dispose());
    windows.forEach((store) => store.dispose());
    const answers = apiRequests(mock);
    assert.ok(answers.length >= 30, `${answers.length} requests in ten minutes`);
    assert.equal(answers.filter((r) => r.status === 429).length, 0);
  });
});

describe('windows flooding one key (unit, simulated clock, the mock API)', function () {
  this.timeout(60_000);

  // Each window wants 120 reads at the start of every minute, at the extension's default limit (100); some APIs say
  // `Retry-After: 5` on every 429 whatever their window holds.
  for (const windows of [2, 3]) {
    for (const [headers, retryAfter] of [[true], [false], [true, 5], [false, 5]] as const) {
      const told = `${headers ? 'with' : 'without'} rate-limit headers${retryAfter ? `, every 429 saying Retry-After: ${retryAfter}` : ''}`;
      it(`${windows} windows each wanting 120 reads a minute ${told}: ≤ 10 × 429 in any minute, ≥ 100 served a minute`, async () => {
        const { refused, served } = await floodOneKey(windows, { minutes: 4, burst: true, headers, retryAfter });
        const detail = `429s per minute ${refused.join(', ')}; served ${served.join(', ')}`;
        assert.ok(
          refused.every((count) => count <= 10),
          detail,
        );
        assert.ok(
          served.slice(1).every((count) => count >= 100),
          detail,
        );
      });
    }
  }
});
