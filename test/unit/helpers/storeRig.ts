import { ApiClient } from '../../../src/api/ApiClient';
import { LimiterRegistry } from '../../../src/api/limiterRegistry';
import { Store } from '../../../src/store/Store';
import { type StoreSettings } from '../../../src/store/types';
import { DEMO_API_KEY, type MockApi } from '../../mock-api/server';
import { type FakeClock } from './FakeClock';

/** A store wired to a mock API as the extension wires it, on a clock the test controls. */
export function storeFor(mock: MockApi, clock: FakeClock, overrides: Partial<StoreSettings> = {}): {
  store: Store;
  key: { value: string | undefined };
} {
  const key = { value: DEMO_API_KEY as string | undefined };
  const limiters = new LimiterRegistry(61_000, clock);
  const store = new Store({
    createClient: (options) => new ApiClient({ ...options, userAgent: 'store-test', limiters, clock, retry: { baseDelayMs: 10, maxDelayMs: 20 } }),
    getKey: () => Promise.resolve(key.value),
    settings: () => ({ baseUrl: mock.url, requestsPerMinute: 100, requestTimeoutMs: 5_000, ...overrides }),
    clock,
  });
  return { store, key };
}

/** Waits in real time until the store has no request under way (the HTTP side runs on real time). */
export async function idle(store: Store, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  const busy = (): boolean => store.ordersInfo.loading || store.balance.loading || store.account.loading || store.invoices.loading;
  await new Promise((resolve) => setImmediate(resolve));
  while (busy()) {
    if (Date.now() - started > timeoutMs) throw new Error('the store stayed busy');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
