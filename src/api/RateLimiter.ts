import { type Clock, systemClock } from './clock';
import { ApiError, cancelledError } from './errors';
import {
  type AcquireOptions,
  type Permit,
  type RateLimiterOptions,
  type RequestPriority,
  type RateLimitStatus,
  notSentError,
  tooLongError,
} from './rateLimit';

export type { AcquireOptions, Permit, RateLimiterOptions, RateLimitStatus, RequestPriority } from './rateLimit';

interface Waiter {
  readonly priority: RequestPriority;
  readonly resolve: (permit: Permit) => void;
  readonly reject: (error: unknown) => void;
  readonly cleanup: () => void;
  /** Set once the waiter has left the queue, so a cancelled one is skipped instead of searched for. */
  done: boolean;
}

/** No server may hold us longer than this at a time: a longer wait it asks for is retried after this. */
export const MAX_HOLD_MS = 5 * 60_000;
/**
 * Slots of the server's budget (`X-RateLimit-Remaining`) that background requests leave alone. Other windows on the
 * same key spend from it too, and what the server last said is already stale by their requests in flight; the user's
 * own requests may still use these slots.
 */
const SERVER_RESERVE = 4;
/** Timers are re-armed at least this often; a far-off time never overflows Node's 2^31 ms timer into 1 ms. */
const MAX_TIMER_MS = 60_000;

/**
 * A rolling-window limiter: at most `limit` requests in any `windowMs`. Requests over the limit wait in a queue (user
 * actions before background refreshes) instead of failing, so the server never has to answer 429.
 *
 * A request counts from the moment it is let through until `windowMs` after its answer came back. The server counts
 * it from its arrival, which may be much later than our start when the connection pool queues it or the network is
 * slow; counting from the answer is always later than the arrival, so our window never frees a slot before the
 * server's does.
 *
 * Waits a server asks for (`Retry-After`, an exhausted `X-RateLimit-Remaining`) are capped at MAX_HOLD_MS, and one that
 * is longer than `maxHoldMs` fails requests at once, saying until when, instead of queueing them silently.
 */
export class RateLimiter {
  private limit: number;
  private readonly windowMs: number;
  private readonly clock: Clock;
  private readonly maxHoldMs: number;
  private readonly maxQueued: number;
  /** When each finished request's answer came back, oldest first. */
  private readonly sent: number[] = [];
  private inFlight = 0;
  private queue: Waiter[] = [];
  private waiting = 0;
  private heldUntil = 0;
  /** What the server asked for, when that was longer than we hold: shown to the user. */
  private requestedUntil = 0;
  private server?: { remaining: number; resetAt: number };
  private timer: unknown;

  constructor(options: RateLimiterOptions) {
    this.limit = Math.max(1, Math.floor(options.limit));
    this.windowMs = options.windowMs;
    this.clock = options.clock ?? systemClock;
    this.maxHoldMs = options.maxHoldMs ?? 60_000;
    this.maxQueued = options.maxQueued ?? 256;
  }

  setLimit(limit: number): void {
    this.limit = Math.max(1, Math.floor(limit));
    this.pump();
  }

  acquire(options: AcquireOptions = {}): Promise<Permit> {
    const { signal, priority = 'background', maxWaitMs, onWait } = options;
    if (signal?.aborted) return Promise.reject(cancelledError());
    const holdError = this.holdError();
    if (holdError) return Promise.reject(holdError);
    if (this.waiting >= this.maxQueued) {
      return Promise.reject(
        new ApiError('rateLimited', 'Too many requests are waiting for the API; this one was not sent.', {
          maybeSent: false,
        }),
      );
    }
    const now = this.clock.now();
    const expected = this.waiting ? Number.POSITIVE_INFINITY : this.nextSlotAt(now, priority);
    if (maxWaitMs !== undefined && expected !== Number.POSITIVE_INFINITY && expected - now > maxWaitMs) {
      return Promise.reject(notSentError(expected - now));
    }
    return new Promise<Permit>((resolve, reject) => {
      let deadline: unknown;
      const leave = (error: ApiError): void => {
        if (waiter.done) return;
        waiter.done = true;
        this.waiting--;
        waiter.cleanup();
        reject(error);
        this.compact();
        this.pump();
      };
      const onAbort = (): void => leave(cancelledError());
      const waiter: Waiter = {
        priority,
        resolve,
        reject,
        done: false,
        cleanup: () => {
          signal?.removeEventListener('abort', onAbort);
          if (deadline !== undefined) this.clock.clearTimeout(deadline);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (maxWaitMs !== undefined) {
        deadline = this.clock.setTimeout(() => leave(notSentError(maxWaitMs)), maxWaitMs);
      }
      // User actions overtake queued background refreshes, but keep their own order.
      const firstBackground =
        priority === 'user' ? this.queue.findIndex((w) => !w.done && w.priority === 'background') : -1;
      if (firstBackground >= 0) this.queue.splice(firstBackground, 0, waiter);
      else this.queue.push(waiter);
      this.waiting++;
      this.pump();
      if (!waiter.done && onWait) {
        const until = this.nextSlotAt(this.clock.now(), priority);
        onWait(until === Number.POSITIVE_INFINITY ? this.clock.now() : until);
      }
    });
  }

  /**
   * Honours a server's `Retry-After`: nothing is sent for this key and origin until `time`, or for MAX_HOLD_MS at
   * most; the time the server asked for is kept to be shown.
   */
  holdUntil(time: number): void {
    const now = this.clock.now();
    if (!Number.isFinite(time)) return;
    if (time > now + MAX_HOLD_MS) this.requestedUntil = Math.max(this.requestedUntil, time);
    const capped = Math.min(time, now + MAX_HOLD_MS);
    if (capped <= this.heldUntil) return;
    this.heldUntil = capped;
    const holdError = this.holdError();
    if (holdError) this.rejectAll(holdError);
    this.pump();
  }

  /** Feeds the server's `X-RateLimit-Remaining`/`-Reset`: other windows or tools may share the key. */
  observeServer(remaining: number, resetAt: number): void {
    if (!Number.isFinite(remaining) || !Number.isFinite(resetAt)) return;
    const now = this.clock.now();
    if (remaining <= 0 && resetAt > now + MAX_HOLD_MS) this.requestedUntil = Math.max(this.requestedUntil, resetAt);
    this.server = { remaining: Math.max(0, Math.floor(remaining)), resetAt: Math.min(resetAt, now + MAX_HOLD_MS) };
    const holdError = this.holdError();
    if (holdError) this.rejectAll(holdError);
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
      queued: this.waiting,
      heldUntil: heldUntil > now ? heldUntil : undefined,
      requestedUntil: this.requestedUntil > now ? this.requestedUntil : undefined,
    };
  }

  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.rejectAll(cancelledError());
  }

  private rejectAll(error: ApiError): void {
    for (const waiter of this.queue) {
      if (waiter.done) continue;
      waiter.done = true;
      waiter.cleanup();
      waiter.reject(error);
    }
    this.queue = [];
    this.waiting = 0;
  }

  /** Drops cancelled waiters once they are the majority: cancelling thousands costs linear time, not quadratic. */
  private compact(): void {
    if (this.queue.length > 32 && this.waiting * 2 < this.queue.length) this.queue = this.queue.filter((w) => !w.done);
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

  /** The time the server asked us to wait until, when it is too far off to queue for. */
  private holdError(): ApiError | undefined {
    const now = this.clock.now();
    const serverHold = this.server && this.server.remaining <= 0 ? this.server.resetAt : 0;
    const until = Math.max(this.heldUntil, serverHold);
    const wait = until - now;
    if (wait <= this.maxHoldMs) return undefined;
    return tooLongError(wait, Math.max(this.requestedUntil, until) - now);
  }

  private prune(now: number): void {
    let drop = 0;
    while (drop < this.sent.length && (this.sent[drop] ?? 0) <= now - this.windowMs) drop++;
    if (drop) this.sent.splice(0, drop);
  }

  /** When the next request (of the given priority) may start, or 0 if now. */
  private nextSlotAt(now: number, priority: RequestPriority = 'user'): number {
    this.prune(now);
    let at = this.heldUntil > now ? this.heldUntil : 0;
    if (this.inFlight >= this.limit) return Number.POSITIVE_INFINITY; // a release will pump
    if (this.sent.length + this.inFlight >= this.limit) {
      at = Math.max(at, (this.sent[this.sent.length + this.inFlight - this.limit] ?? now) + this.windowMs);
    }
    const floor = priority === 'user' ? 0 : SERVER_RESERVE;
    if (this.server && this.server.resetAt > now && this.server.remaining <= floor) {
      at = Math.max(at, this.server.resetAt);
    }
    return at;
  }

  private pump(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.waiting) {
      const now = this.clock.now();
      const head = this.queue.find((w) => !w.done);
      const at = this.nextSlotAt(now, head?.priority);
      if (at === Number.POSITIVE_INFINITY) return;
      if (at > now) {
        this.timer = this.clock.setTimeout(
          () => {
            this.timer = undefined;
            this.pump();
          },
          Math.min(at - now, MAX_TIMER_MS),
        );
        return;
      }
      const waiter = this.queue.shift();
      if (!waiter) return;
      if (waiter.done) continue;
      waiter.done = true;
      this.waiting--;
      this.inFlight++;
      if (this.server && this.server.resetAt > now) this.server.remaining--;
      waiter.cleanup();
      waiter.resolve(this.permit());
    }
  }
}
