import { type Clock, systemClock } from './clock';
import { ApiError, cancelledError } from './errors';

export type RequestPriority = 'user' | 'background';

export interface RateLimitStatus {
  readonly limit: number;
  readonly windowMs: number;
  /** Requests sent in the current rolling window. */
  readonly used: number;
  /** What is left: the smaller of our own budget and the server's `X-RateLimit-Remaining`, when it sent one. */
  readonly remaining: number;
  readonly queued: number;
  /** Set while a `Retry-After` (or an exhausted server budget) holds every request. */
  readonly heldUntil?: number;
}

/** Held while a request is on its way; `release` when its answer (or failure) is in. */
export interface Permit {
  release(): void;
}

interface Waiter {
  readonly priority: RequestPriority;
  readonly resolve: (permit: Permit) => void;
  readonly reject: (error: unknown) => void;
  readonly cleanup: () => void;
}

export interface RateLimiterOptions {
  readonly limit: number;
  readonly windowMs: number;
  readonly clock?: Clock;
  /** A hold longer than this fails requests at once instead of queueing them for minutes. */
  readonly maxHoldMs?: number;
}

/**
 * A rolling-window limiter: at most `limit` requests in any `windowMs`. Requests over the limit wait in a queue (user
 * actions before background refreshes) instead of failing, so the server never has to answer 429.
 *
 * A request counts from the moment it is let through until `windowMs` after its answer came back. The server counts
 * it from its arrival, which may be much later than our start when the connection pool queues it or the network is
 * slow; counting from the answer is always later than the arrival, so our window never frees a slot before the
 * server's does.
 */
export class RateLimiter {
  private limit: number;
  private readonly windowMs: number;
  private readonly clock: Clock;
  private readonly maxHoldMs: number;
  /** When each finished request's answer came back, oldest first. */
  private readonly sent: number[] = [];
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  private heldUntil = 0;
  private server?: { remaining: number; resetAt: number };
  private timer: unknown;

  constructor(options: RateLimiterOptions) {
    this.limit = Math.max(1, Math.floor(options.limit));
    this.windowMs = options.windowMs;
    this.clock = options.clock ?? systemClock;
    this.maxHoldMs = options.maxHoldMs ?? 60_000;
  }

  setLimit(limit: number): void {
    this.limit = Math.max(1, Math.floor(limit));
    this.pump();
  }

  acquire(options: { signal?: AbortSignal; priority?: RequestPriority } = {}): Promise<Permit> {
    const { signal, priority = 'background' } = options;
    if (signal?.aborted) return Promise.reject(cancelledError());
    const holdError = this.holdError();
    if (holdError) return Promise.reject(holdError);
    return new Promise<Permit>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(cancelledError());
        this.pump();
      };
      const waiter: Waiter = {
        priority,
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      // User actions overtake queued background refreshes, but keep their own order.
      const firstBackground = priority === 'user' ? this.queue.findIndex((w) => w.priority === 'background') : -1;
      if (firstBackground >= 0) this.queue.splice(firstBackground, 0, waiter);
      else this.queue.push(waiter);
      this.pump();
    });
  }

  /** Honours a server's `Retry-After`: nothing is sent for this key until `time`. */
  holdUntil(time: number): void {
    if (time <= this.heldUntil) return;
    this.heldUntil = time;
    const holdError = this.holdError();
    if (holdError) {
      for (const waiter of this.queue.splice(0)) {
        waiter.cleanup();
        waiter.reject(holdError);
      }
    }
    this.pump();
  }

  /** Feeds the server's `X-RateLimit-Remaining`/`-Reset`: other windows or tools may share the key. */
  observeServer(remaining: number, resetAt: number): void {
    if (!Number.isFinite(remaining) || !Number.isFinite(resetAt)) return;
    this.server = { remaining: Math.max(0, Math.floor(remaining)), resetAt };
  }

  status(): RateLimitStatus {
    const now = this.clock.now();
    this.prune(now);
    const own = Math.max(0, this.limit - this.sent.length - this.inFlight);
    const server = this.server && this.server.resetAt > now ? this.server.remaining : undefined;
    const heldUntil = Math.max(this.heldUntil, server === 0 && this.server ? this.server.resetAt : 0);
    return {
      limit: this.limit,
      windowMs: this.windowMs,
      used: this.sent.length + this.inFlight,
      remaining: server === undefined ? own : Math.min(own, server),
      queued: this.queue.length,
      heldUntil: heldUntil > now ? heldUntil : undefined,
    };
  }

  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const error = cancelledError();
    for (const waiter of this.queue.splice(0)) {
      waiter.cleanup();
      waiter.reject(error);
    }
  }

  private permit(): Permit {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.inFlight--;
        // Kept sorted: answers can come back in any order, but each is stamped with the time it is released.
        this.sent.push(this.clock.now());
        this.pump();
      },
    };
  }

  private holdError(): ApiError | undefined {
    const wait = this.heldUntil - this.clock.now();
    if (wait <= this.maxHoldMs) return undefined;
    return new ApiError('rateLimited', `The server asked to wait ${Math.ceil(wait / 1000)} s before the next request.`, {
      retryAfterMs: wait,
    });
  }

  private prune(now: number): void {
    while (this.sent.length && (this.sent[0] ?? 0) <= now - this.windowMs) this.sent.shift();
  }

  /** When the next request may start, or 0 if now. */
  private nextSlotAt(now: number): number {
    this.prune(now);
    let at = this.heldUntil > now ? this.heldUntil : 0;
    if (this.inFlight >= this.limit) return Number.POSITIVE_INFINITY; // a release will pump
    if (this.sent.length + this.inFlight >= this.limit) {
      at = Math.max(at, (this.sent[this.sent.length + this.inFlight - this.limit] ?? now) + this.windowMs);
    }
    if (this.server && this.server.resetAt > now && this.server.remaining <= 0) at = Math.max(at, this.server.resetAt);
    return at;
  }

  private pump(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length) {
      const now = this.clock.now();
      const at = this.nextSlotAt(now);
      if (at === Number.POSITIVE_INFINITY) return;
      if (at > now) {
        this.timer = this.clock.setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, at - now);
        return;
      }
      const waiter = this.queue.shift();
      if (!waiter) return;
      this.inFlight++;
      if (this.server && this.server.resetAt > now) this.server.remaining--;
      waiter.cleanup();
      waiter.resolve(this.permit());
    }
  }
}
