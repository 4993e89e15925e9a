import assert from 'node:assert/strict';
import { ApiClient } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/limiterRegistry';
import { observeRateLimit } from '../../src/api/rateLimitHeaders';
import { DEMO_API_KEY, type MockApi, startMockApi } from '../mock-api/server';
import { FakeClock } from './helpers/FakeClock';
import { RollingServer } from './helpers/rollingServer';
import { drain } from './helpers/storeRig';

describe('two windows on one key (unit, against the mock API)', () => {
  let mock: MockApi;
  let clock: FakeClock;

  beforeEach(async () => {
    clock = new FakeClock(Date.now());
    mock = await startMockApi({ now: () => clock.now(), rateLimit: { limit: 120, windowMs: 60_000 } });
  });
  afterEach(() => mock.close());

  /** One VS Code window: its own client and its own limiter, as two extension hosts have. */
  const window = (): { api: ApiClient; limiters: LimiterRegistry } => {
    const limiters = new LimiterRegistry(61_000, clock);
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
    const answers = mock.requests.filter((r) => r.rawPath.startsWith('/api/'));
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
});

describe('two windows flooding one key (unit, simulated clock and server)', () => {
  const KEY = 'simulated-key';
  const ORIGIN = 'https://api.example.test';

  /**
   * Two windows (two registries, as two extension hosts have), each wanting `perMinute` background reads a minute of
   * a server that allows 120 in any rolling minute, for `minutes`. Each read goes as the pipeline sends it: a permit,
   * the answer, its word on the limit fed back, the permit released.
   */
  async function flood(headers: boolean, minutes = 11, perMinute = 120, limit = 120) {
    const clock = new FakeClock();
    const server = new RollingServer(120, 60_000, headers);
    const registries = [new LimiterRegistry(61_000, clock), new LimiterRegistry(61_000, clock)];
    const limiters = registries.map((registry) => registry.get(KEY, ORIGIN, limit));
    const start = clock.now();
    const stepMs = 60_000 / perMinute;
    for (let t = 0; t < minutes * 60_000; t += stepMs) {
      for (const limiter of limiters) {
        limiter.acquire({ priority: 'background' }).then(
          (permit) => {
            observeRateLimit(limiter, server.answer(clock.now()), clock.now());
            permit.release();
          },
          () => undefined,
        );
      }
      await clock.advance(stepMs);
    }
    const afterFirstMinute = server.between(start + 60_000, start + minutes * 60_000);
    const statuses = limiters.map((limiter) => limiter.status());
    for (const registry of registries) registry.dispose();
    return { ...afterFirstMinute, perMinute: afterFirstMinute.accepted / (minutes - 1), statuses };
  }

  for (const headers of [false, true]) {
    it(`stays under a shared 120/min ${headers ? 'with' : 'without'} rate-limit headers: ≤ 5 × 429 in ten minutes after the first, ≥ 100 served a minute`, async () => {
      const { refused, perMinute, statuses } = await flood(headers);
      assert.ok(refused <= 5, `${refused} × 429 after the first minute`);
      assert.ok(perMinute >= 100, `${perMinute.toFixed(1)} requests served a minute`);
      for (const status of statuses) {
        // What the status bar says ("x of y") is the limit in force, not the configured one.
        assert.ok(status.limit <= status.configuredLimit);
        assert.ok(status.remaining <= status.limit);
      }
    });
  }
});
