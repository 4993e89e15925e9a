import { ApiClient } from '../../../src/api/ApiClient';
import { LimiterRegistry } from '../../../src/api/RateLimiter';
import { Store } from '../../../src/store/Store';
import { type StoreSettings } from '../../../src/store/types';
import { DEMO_API_KEY, type MockApi } from '../../mock-api/server';
import { settlingOnly } from './FakeApi';
import { type FakeClock } from './FakeClock';

/** A store wired to a mock API as the extension wires it, on a clock the test controls. */
export function storeFor(
  mock: MockApi,
  clock: FakeClock,
  overrides: Partial<StoreSettings> = {},
): {
  store: Store;
  key: { value: string | undefined };
} {
  const key = { value: DEMO_API_KEY as string | undefined };
  const limiters = new LimiterRegistry(61_000, clock);
  const store = new Store({
    createClient: (options) =>
      new ApiClient({
        ...options,
        userAgent: 'store-test',
        limiters,
        clock,
        retry: { baseDelayMs: 10, maxDelayMs: 20 },
      }),
    getKey: () => Promise.resolve(key.value),
    settings: () => ({ baseUrl: mock.url, requestsPerMinute: 100, requestTimeoutMs: 5_000, ...overrides }),
    clock,
  });
  settlingOnly(store, clock);
  return { store, key };
}

/** Waits in real time until the store has no request under way (the HTTP side runs on real time). */
export async function idle(store: Store, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  const busy = (): boolean =>
    store.ordersInfo.loading || store.balance.loading || store.account.loading || store.invoices.loading;
  await new Promise((resolve) => setImmediate(resolve));
  while (busy()) {
    if (Date.now() - started > timeoutMs) throw new Error('the store stayed busy');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Lets `ms` of simulated time pass in five-second steps, the store's requests completing (in real time) in between. */
export async function simulate(clock: FakeClock, store: Store, ms: number): Promise<void> {
  for (let passed = 0; passed < ms; passed += 5_000) {
    await clock.advance(Math.min(5_000, ms - passed));
    await idle(store);
  }
}

/**
 * Moves simulated time, a second at a time, until every call has ended (or `maxSeconds` passed): queued requests
 * and backoffs wait on the fake clock. Returns whether they all ended.
 */
export async function drain(
  clock: FakeClock,
  calls: ReadonlyArray<Promise<unknown>>,
  maxSeconds = 600,
): Promise<boolean> {
  let done = false;
  void Promise.all(calls).then(() => (done = true));
  for (let i = 0; i < maxSeconds && !done; i++) {
    await clock.advance(1_000);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return done;
}

/** The API requests the mock received (not its control or web pages). */
export function apiRequests(mock: MockApi): MockApi['requests'] {
  return mock.requests.filter((r) => r.rawPath.startsWith('/api/'));
}
