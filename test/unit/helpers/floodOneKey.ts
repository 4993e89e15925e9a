import { ApiClient } from '../../../src/api/ApiClient';
import { LimiterRegistry, type SharedState } from '../../../src/api/RateLimiter';
import { DEMO_API_KEY, startMockApi } from '../../mock-api/server';
import { FakeClock } from './FakeClock';
import { apiRequests } from './storeRig';

export interface Flood {
  /** 429s the mock answered in each simulated minute, the first included. */
  readonly refused: number[];
  /** Requests it served in each minute. */
  readonly served: number[];
}

export interface FloodOptions {
  readonly minutes?: number;
  /** Background reads each window wants a minute. */
  readonly perMinute?: number;
  /** All of a minute's reads at its start, or spread evenly over it. */
  readonly burst?: boolean;
  /** Whether the mock sends `X-RateLimit-*` and `Retry-After`. */
  readonly headers?: boolean;
  /** Each window's `maxRequestsPerMinute` (the setting's default is 100). */
  readonly limit?: number;
  /** Every 429 says `Retry-After: <this>` (with or without the other headers). */
  readonly retryAfter?: number;
  /** How long a hold one window writes takes to reach the others; `false`: the windows share nothing. */
  readonly shareMs?: number | false;
}

/** One machine's `globalState` as its windows share it: a window's write reaches the others `delayMs` later. */
export function sharedState(clock: FakeClock, delayMs = 1_000): () => SharedState {
  const writes: Array<{ key: string; value: unknown; at: number; by: number }> = [];
  let windows = 0;
  return () => {
    const me = windows++;
    return {
      get: <T>(key: string) =>
        [...writes].reverse().find((w) => w.key === key && (w.by === me || clock.now() - w.at >= delayMs))?.value as T,
      update: (key, value) => void writes.push({ key, value, at: clock.now(), by: me }),
    };
  };
}

/**
 * `windows` VS Code windows on one key (each its own client and limiter registry, as each extension host has), each
 * wanting `perMinute` background reads a minute, against the mock's 120 per rolling minute, for `minutes` of
 * simulated time. Each read has its own id, so coalescing cannot hide the load (unknown orders answer 404 and count).
 */
export async function floodOneKey(
  windows: number,
  {
    minutes = 5,
    perMinute = 120,
    burst = false,
    headers = true,
    limit = 100,
    retryAfter,
    shareMs = 1_000,
  }: FloodOptions = {},
): Promise<Flood> {
  const clock = new FakeClock(Date.now());
  const mock = await startMockApi({
    now: () => clock.now(),
    rateLimit: { limit: 120, windowMs: 60_000, retryAfterSeconds: retryAfter },
    rateLimitHeaders: headers,
  });
  const board = shareMs === false ? undefined : sharedState(clock, shareMs);
  const registries = Array.from({ length: windows }, () => new LimiterRegistry(61_000, clock, board?.()));
  const clients = registries.map(
    (limiters) =>
      new ApiClient({
        baseUrl: mock.url,
        getKey: () => DEMO_API_KEY,
        userAgent: 'flood',
        requestsPerMinute: limit,
        limiters,
        clock,
      }),
  );
  const start = clock.now();
  const stepMs = 500;
  const steps = 60_000 / stepMs;
  let sent = 0;
  try {
    for (let step = 0; step < minutes * steps; step++) {
      const due = burst ? (Math.floor(step / steps) + 1) * perMinute : Math.floor(((step + 1) * perMinute) / steps);
      for (; sent < due; sent++) {
        clients.forEach(
          (client, i) => void client.getOrder(`w${i}-${sent}`, { priority: 'background' }).catch(() => undefined),
        );
      }
      await clock.advance(stepMs);
      // Real time for the mock to answer: each request reaches it close to the simulated time it left.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const refused = new Array<number>(minutes).fill(0);
    const served = new Array<number>(minutes).fill(0);
    for (const request of apiRequests(mock)) {
      const minute = Math.floor((request.time - start) / 60_000);
      if (minute >= minutes) continue;
      if (request.status === 429) refused[minute] = (refused[minute] ?? 0) + 1;
      else served[minute] = (served[minute] ?? 0) + 1;
    }
    return { refused, served };
  } finally {
    for (const client of clients) await client.dispose();
    for (const registry of registries) registry.dispose();
    await mock.close();
  }
}
