import { type Clock, systemClock } from './clock';
import { Congestion } from './congestion';
import { type ApiError, cancelledError } from './errors';
import {
  type AcquireOptions,
  type Permit,
  queueFullError,
  type RateLimiterOptions,
  type RequestPriority,
  type RateLimitStatus,
  notSentError,
} from './rateLimit';
import { RequestWindow } from './requestWindow';
import { ServerHolds } from './serverHolds';

export type { AcquireOptions, Permit, RateLimiterOptions, RateLimitStatus, RequestPriority } from './rateLimit';
export { Urgency } from './rateLimit';
export { MAX_HOLD_MS } from './serverHolds';

interface Waiter {
  priority: RequestPriority;
  readonly resolve: (permit: Permit) => void;
  readonly reject: (error: unknown) => void;
  readonly cleanup: () => void;
  /** Set once the waiter has left the queue, so a cancelled one is skipped instead of searched for. */
  done: boolean;
}

/** Timers are re-armed at least this often; a far-off time never overflows Node's 2^31 ms timer into 1 ms. */
const MAX_TIMER_MS = 60_000;
/** Slots of our own window that background requests leave to the user (an eighth of a small limit). */
const USER_RESERVE = 4;

/**
 * A rolling-window limiter: at most `limit` requests in any `windowMs` (counted by `RequestWindow`). Requests over the
 * limit wait in a queue (user actions before background refreshes) instead of failing, so the server never has to
 * answer 429. Background requests leave the last few slots of the window to the user, so a click never waits for a
 * window that background refreshes spent.
 *
 * Waits a server asks for (`Retry-After`, an exhausted `X-RateLimit-Remaining`) are capped at MAX_HOLD_MS, and one that
 * is longer than `maxHoldMs` fails requests at once, saying until when, instead of queueing them silently.
 */
export class RateLimiter {
  private readonly window: RequestWindow;
  private readonly holds = new ServerHolds();
  private readonly congestion: Congestion;
  /** When the server answered 429, within the last window. */
  private refusals: number[] = [];
  private readonly clock: Clock;
  private readonly maxHoldMs: number;
  private readonly maxQueued: number;
  private queue: Waiter[] = [];
  private waiting = 0;
  private timer: unknown;

  constructor(options: RateLimiterOptions) {
    this.window = new RequestWindow(Math.max(1, Math.floor(options.limit)), options.windowMs);
    this.congestion = new Congestion(this.window.limit);
    this.clock = options.clock ?? systemClock;
    this.maxHoldMs = options.maxHoldMs ?? 60_000;
    this.maxQueued = options.maxQueued ?? 256;
  }

  /** The configured limit; while 429s have lowered it, the limit in force climbs back towards this one. */
  setLimit(limit: number): void {
    this.window.limit = Math.max(1, Math.floor(limit));
    this.congestion.setCeiling(this.window.limit);
    this.pump();
  }

  acquire(options: AcquireOptions = {}): Promise<Permit> {
    const { signal, urgency, maxWaitMs, onWait } = options;
    const priority = urgency?.priority ?? options.priority ?? 'background';
    if (signal?.aborted) return Promise.reject(cancelledError());
    const holdError = this.holdError();
    if (holdError) return Promise.reject(holdError);
    if (this.waiting >= this.maxQueued && !this.makeRoom()) return Promise.reject(queueFullError());
    const now = this.clock.now();
    const expected = this.waiting ? Number.POSITIVE_INFINITY : this.nextSlotAt(now, priority);
    if (maxWaitMs !== undefined && expected !== Number.POSITIVE_INFINITY && expected - now > maxWaitMs) {
      return Promise.reject(notSentError(expected - now));
    }
    return new Promise<Permit>((resolve, reject) => {
      let deadline: unknown;
      let stopListening: (() => void) | undefined;
      const leave = (error: ApiError): void => {
        if (waiter.done) return;
        this.drop(waiter, error);
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
          stopListening?.();
          if (deadline !== undefined) this.clock.clearTimeout(deadline);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (maxWaitMs !== undefined) {
        deadline = this.clock.setTimeout(() => leave(notSentError(maxWaitMs)), maxWaitMs);
      }
      this.enqueue(waiter);
      this.waiting++;
      if (priority === 'background' && urgency) stopListening = urgency.onRaise(() => this.raise(waiter));
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
    if (!this.holds.holdUntil(time, this.clock.now())) return;
    const holdError = this.holdError();
    if (holdError) this.rejectAll(holdError);
    this.pump();
  }

  /**
   * The server refused a request with 429: another window or tool spends from the same key. The limit in force drops
   * below what the server accepted from us in the last window, and climbs back slowly (see Congestion).
   */
  refused(): void {
    const now = this.clock.now();
    this.refusals = this.refusals.filter((at) => at > now - this.window.windowMs);
    this.refusals.push(now);
    this.congestion.refused(now, this.window.used(now) - this.refusals.length);
    this.pump();
  }

  /**
   * Feeds the server's `X-RateLimit-Remaining`/`-Reset`: other windows or tools may share the key. Told while the
   * answering request still holds its permit; our other requests under way are not in the server's count yet.
   */
  observeServer(remaining: number, resetAt: number): void {
    const ours = Math.max(0, this.window.pending - 1);
    if (!this.holds.observe(remaining - ours, resetAt, this.clock.now())) return;
    const holdError = this.holdError();
    if (holdError) this.rejectAll(holdError);
    this.pump();
  }

  status(): RateLimitStatus {
    const now = this.clock.now();
    const used = this.window.used(now);
    const limit = this.congestion.limit(now);
    const own = Math.max(0, limit - used);
    const server = this.holds.status(now);
    return {
      limit,
      configuredLimit: this.window.limit,
      windowMs: this.window.windowMs,
      used,
      remaining: server.remaining === undefined ? own : Math.min(own, server.remaining),
      queued: this.waiting,
      heldUntil: server.heldUntil,
      requestedUntil: server.requestedUntil,
    };
  }

  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.rejectAll(cancelledError());
  }

  /** User requests overtake queued background requests, but keep their own order. */
  private enqueue(waiter: Waiter): void {
    const firstBackground =
      waiter.priority === 'user' ? this.queue.findIndex((w) => !w.done && w.priority === 'background') : -1;
    if (firstBackground >= 0) this.queue.splice(firstBackground, 0, waiter);
    else this.queue.push(waiter);
  }

  /** A user joined this background request while it waits: it moves up among the user's requests. */
  private raise(waiter: Waiter): void {
    if (waiter.done || waiter.priority === 'user') return;
    const at = this.queue.indexOf(waiter);
    if (at >= 0) this.queue.splice(at, 1);
    waiter.priority = 'user';
    this.enqueue(waiter);
    this.pump();
  }

  /**
   * The queue is full: the oldest background request waiting gives up its place ("not sent"). A user's request is
   * never what gives way; it is refused only when every request waiting is the user's.
   */
  private makeRoom(): boolean {
    const oldest = this.queue.find((w) => !w.done && w.priority === 'background');
    if (!oldest) return false;
    this.drop(oldest, queueFullError());
    this.compact();
    return true;
  }

  private drop(waiter: Waiter, error: unknown): void {
    waiter.done = true;
    this.waiting--;
    waiter.cleanup();
    waiter.reject(error);
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

  private permit(probe: boolean): Permit {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.window.finish(this.clock.now());
        this.holds.settle(probe);
        this.pump();
      },
    };
  }

  /** The time the server asked us to wait until, when it is too far off to queue for. */
  private holdError(): ApiError | undefined {
    return this.holds.holdError(this.clock.now(), this.maxHoldMs);
  }

  /** When the next request (of the given priority) may start, or 0 if now. */
  private nextSlotAt(now: number, priority: RequestPriority = 'user'): number {
    const limit = this.congestion.limit(now);
    const own = priority === 'user' ? limit : limit - Math.min(USER_RESERVE, Math.floor(limit / 8));
    return Math.max(this.window.nextSlotAt(now, own), this.holds.nextSlotAt(now, priority));
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
      this.window.start();
      const probe = this.holds.spend(now);
      waiter.cleanup();
      waiter.resolve(this.permit(probe));
    }
  }
}
