import { type Clock } from './clock';
import { keyFingerprint } from './keyFingerprint';
import { RateLimiter } from './RateLimiter';

/**
 * The server counts requests per key, so the limiter is per key and outlives any one client: changing a setting
 * rebuilds the client but must not reset the count. It is per origin too: a wait one server asked for must not hold
 * requests to another. Keys are held only as a hash.
 */
/** The window the limiter uses: a second longer than the server's minute, so latency cannot make it count 121. */
export const LIMITER_WINDOW_MS = 61_000;

export class LimiterRegistry {
  private readonly limiters = new Map<string, RateLimiter>();

  constructor(
    private readonly windowMs = LIMITER_WINDOW_MS,
    private readonly clock?: Clock,
  ) {}

  get(key: string, origin: string, limit: number): RateLimiter {
    const id = `${keyFingerprint(key)} ${origin}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiter({ limit, windowMs: this.windowMs, clock: this.clock });
      this.limiters.set(id, limiter);
    } else {
      limiter.setLimit(limit);
    }
    return limiter;
  }

  dispose(): void {
    for (const limiter of this.limiters.values()) limiter.dispose();
    this.limiters.clear();
  }
}
