import assert from 'node:assert/strict';
import { ApiClient } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/limiterRegistry';
import { DEMO_API_KEY, type MockApi, startMockApi } from '../mock-api/server';
import { FakeClock } from './helpers/FakeClock';
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
