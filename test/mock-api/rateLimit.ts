export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the oldest request in the window expires. */
  resetAt: number;
  /** Whole seconds until a slot frees; only meaningful when refused. */
  retryAfter: number;
}

/** Rolling-window limiter per key. Refused requests are not recorded, so they do not extend the wait. */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): RateLimitDecision {
    const now = this.now();
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    const allowed = recent.length < this.limit;
    if (allowed) recent.push(now);
    if (recent.length > 0) this.hits.set(key, recent);
    else this.hits.delete(key);

    const oldest = recent[0] ?? now;
    const expiresAt = oldest + this.windowMs;
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - recent.length),
      resetAt: Math.ceil(expiresAt / 1000),
      retryAfter: Math.max(1, Math.ceil((expiresAt - now) / 1000)),
    };
  }

  /** Human wording of the window for error messages, e.g. 'minute' or '10 seconds'. */
  describeWindow(): string {
    if (this.windowMs === 60_000) return 'minute';
    if (this.windowMs % 1000 === 0) return `${this.windowMs / 1000} seconds`;
    return `${this.windowMs} ms`;
  }

  clear(): void {
    this.hits.clear();
  }
}
