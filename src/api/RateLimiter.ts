import { type Clock, systemClock } from './clock';
import { ApiError, cancelledError } from './errors';
import { keyFingerprint } from './keyFingerprint';
import { parseRateLimitReset, parseRetryAfter } from './response';

export type RequestPriority = 'user' | 'background';

export interface RateLimitStatus {
  readonly limit: number;
  readonly used: number;
  /** The smaller of our own budget and the server's `X-RateLimit-Remaining`. */
  readonly remaining: number;
  readonly queued: number;
  readonly heldUntil?: number;
}

export interface Permit {
  /** The answer (or failure) is in. A 429 is not `counted`: the server does not count it either. */
  release(counted?: boolean): void;
}

export interface AcquireOptions {
  readonly signal?: AbortSignal;
  readonly priority?: RequestPriority;
  /** A priority a user may raise while the request waits (when they join it); wins over `priority`. */
  readonly urgency?: Urgency;
  /** Fail "not sent" rather than wait longer (an action must not go out long after the click). */
  readonly maxWaitMs?: number;
  readonly onWait?: (until: number) => void;
}

/** No server holds us longer than this at a time; a longer wait it asks for is tried again after this. */
export const MAX_HOLD_MS = 5 * 60_000;
/** Of the server's announced budget (and of ours, up to an eighth), background reads leave this much to the user. */
const RESERVE = 4;
/** So that a 429 stops a queue of background reads instead of answering all of them. */
const BACKGROUND_IN_FLIGHT = 2;
const DEFAULT_429_HOLD_MS = 5_000;
const MAX_TIMER_MS = 60_000;

/** A request's priority, which rises to the user's when a user joins it while it waits. */
export class Urgency {
  private readonly listeners = new Set<() => void>();

  constructor(private current: RequestPriority = 'background') {}

  get priority(): RequestPriority {
    return this.current;
  }

  raise(): void {
    if (this.current === 'user') return;
    this.current = 'user';
    for (const listener of this.listeners) listener();
    this.listeners.clear();
  }

  onRaise(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

interface Waiter {
  lane: RequestPriority;
  readonly resolve: (permit: Permit) => void;
  readonly reject: (error: unknown) => void;
  cleanup(): void;
}

/**
 * At most `limit` requests in any rolling `windowMs` for one key and origin, counted from each answer. User requests
 * wait in a lane of their own, never behind background reads. What the server says is a capped hold: `Retry-After`,
 * an `X-RateLimit-Remaining` near 0 until its reset, and a 429 without `Retry-After`, after which background reads go
 * out for a window only in place of ours the server took in the window before (other windows spend from the key too).
 */
export class RateLimiter {
  private readonly answered: number[] = [];
  private readonly inFlight: Record<RequestPriority, number> = { user: 0, background: 0 };
  private readonly queues: Record<RequestPriority, Waiter[]> = { user: [], background: [] };
  private heldUntil = 0;
  /** What the server asked for when it was longer than we hold: told to the user. */
  private askedUntil = 0;
  private server?: { remaining: number; resetAt: number };
  /** A background read sent after a low budget's reset time: the others wait for what its answer says. */
  private probing = false;
  private replaceOwn?: { until: number; count: number };
  private timer: unknown;
  private limit: number;
  private readonly windowMs: number;
  private readonly clock: Clock;
  private readonly maxHoldMs: number;
  private readonly maxQueued: number;

  constructor(options: { limit: number; windowMs: number; clock?: Clock; maxHoldMs?: number; maxQueued?: number }) {
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

  acquire({ signal, priority, urgency, maxWaitMs, onWait }: AcquireOptions = {}): Promise<Permit> {
    if (signal?.aborted) return Promise.reject(cancelledError());
    const now = this.clock.now();
    const refusal = this.tooLong(now);
    if (refusal) return Promise.reject(refusal);
    const lane = urgency?.priority ?? priority ?? 'background';
    const at = this.nextAt(lane, now);
    if (maxWaitMs !== undefined && at !== Infinity && at - now > maxWaitMs) return Promise.reject(notSent(at - now));
    if (this.queues.user.length + this.queues.background.length >= this.maxQueued) {
      // The oldest background read gives way; a user's request only when every one waiting is the user's.
      const oldest = this.queues.background.shift();
      if (!oldest) return Promise.reject(queueFull());
      oldest.cleanup();
      oldest.reject(queueFull());
    }
    return new Promise<Permit>((resolve, reject) => {
      const leave = (error: ApiError): void => {
        if (!this.remove(waiter)) return;
        waiter.cleanup();
        reject(error);
        this.pump();
      };
      const onAbort = (): void => leave(cancelledError());
      const deadline =
        maxWaitMs === undefined ? undefined : this.clock.setTimeout(() => leave(notSent(maxWaitMs)), maxWaitMs);
      const stopListening = urgency?.onRaise(() => {
        if (waiter.lane === 'user' || !this.remove(waiter)) return;
        waiter.lane = 'user';
        this.queues.user.push(waiter);
        this.pump();
      });
      const waiter: Waiter = {
        lane,
        resolve,
        reject,
        cleanup: () => {
          signal?.removeEventListener('abort', onAbort);
          stopListening?.();
          if (deadline !== undefined) this.clock.clearTimeout(deadline);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queues[lane].push(waiter);
      this.pump();
      if (onWait && this.queues[waiter.lane].includes(waiter)) {
        const until = this.nextAt(waiter.lane, this.clock.now());
        onWait(until === Infinity ? this.clock.now() : until);
      }
    });
  }

  /** What an answer says of the limit, told before its permit is released; a line for the log when it asks too much. */
  observe(status: number, headers: Readonly<Record<string, string | undefined>>): string | undefined {
    const now = this.clock.now();
    const remaining = headers['x-ratelimit-remaining']?.trim();
    const resetAt = parseRateLimitReset(headers['x-ratelimit-reset'], now);
    let asked = 0;
    if (remaining !== undefined && /^\d{1,9}$/.test(remaining) && resetAt !== undefined) {
      // Our other requests under way are not in the server's count yet.
      const ours = Math.max(0, this.inFlight.user + this.inFlight.background - 1);
      this.server = { remaining: Number(remaining) - ours, resetAt: Math.min(resetAt, now + MAX_HOLD_MS) };
      if (Number(remaining) === 0) asked = resetAt - now;
    }
    if (status === 429 || status === 503) {
      const wait = parseRetryAfter(headers['retry-after'], now);
      if (wait === undefined && status === 429) {
        this.replaceOwn = { until: now + this.windowMs, count: this.answered.length };
      }
      const hold = wait ?? (status === 429 ? DEFAULT_429_HOLD_MS : 0);
      this.heldUntil = Math.max(this.heldUntil, now + Math.min(hold, MAX_HOLD_MS));
      asked = Math.max(asked, hold);
    }
    if (asked > MAX_HOLD_MS) this.askedUntil = Math.max(this.askedUntil, now + asked);
    const refusal = this.tooLong(now);
    if (refusal) this.rejectAll(refusal);
    this.pump();
    if (asked <= MAX_HOLD_MS) return undefined;
    const until = new Date(Math.min(now + asked, 8.64e15)).toISOString();
    return `the server asks to wait until ${until}; requests are held for ${MAX_HOLD_MS / 60_000} min at most, then tried again`;
  }

  status(): RateLimitStatus {
    const now = this.clock.now();
    const used = this.used(now);
    const server = this.server && this.server.resetAt > now ? this.server : undefined;
    const heldUntil = Math.max(this.heldUntil, server && server.remaining <= 0 ? server.resetAt : 0);
    return {
      limit: this.limit,
      used,
      remaining: Math.max(0, Math.min(this.limit - used, server?.remaining ?? Infinity)),
      queued: this.queues.user.length + this.queues.background.length,
      heldUntil: heldUntil > now ? heldUntil : undefined,
    };
  }

  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.rejectAll(cancelledError());
  }

  private used(now: number): number {
    while ((this.answered[0] ?? Infinity) <= now - this.windowMs) this.answered.shift();
    return this.answered.length + this.inFlight.user + this.inFlight.background;
  }

  /** When the next request of the lane may start: 0 if now, Infinity until a release. */
  private nextAt(lane: RequestPriority, now: number): number {
    const used = this.used(now);
    const inFlight = used - this.answered.length;
    const slot = (limit: number): number =>
      limit < 1 || inFlight >= limit ? Infinity : used < limit ? 0 : (this.answered[used - limit] ?? 0) + this.windowMs;
    const user = lane === 'user';
    let at = Math.max(this.heldUntil, slot(user ? this.limit : this.limit - Math.min(RESERVE, this.limit >> 3)));
    const server = this.server;
    if (server && server.resetAt > now && server.remaining <= (user ? 0 : RESERVE)) at = Math.max(at, server.resetAt);
    if (user) return at;
    if (this.probing || this.inFlight.background >= BACKGROUND_IN_FLIGHT) return Infinity;
    const cap = this.replaceOwn;
    return cap && cap.until > now ? Math.max(at, Math.min(slot(cap.count), cap.until)) : at;
  }

  /** The server's low budget reached its reset time with no newer word. */
  private stale(now: number): boolean {
    return this.server !== undefined && this.server.resetAt <= now && this.server.remaining <= RESERVE;
  }

  private start(lane: RequestPriority, now: number): Permit {
    this.inFlight[lane]++;
    const probe = lane === 'background' && this.stale(now);
    if (probe) this.probing = true;
    else if (this.server && this.server.resetAt > now) this.server.remaining--;
    let released = false;
    return {
      release: (counted = true) => {
        if (released) return;
        released = true;
        this.inFlight[lane]--;
        const at = this.clock.now();
        if (counted) this.answered.push(at);
        if (probe) {
          this.probing = false;
          if (this.stale(at)) this.server = undefined;
        }
        this.pump();
      },
    };
  }

  private pump(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const now = this.clock.now();
    let wake = Infinity;
    for (const lane of ['user', 'background'] as const) {
      const queue = this.queues[lane];
      for (let waiter = queue[0]; waiter; waiter = queue[0]) {
        const at = this.nextAt(lane, now);
        if (at > now) {
          wake = Math.min(wake, at);
          break;
        }
        queue.shift();
        waiter.cleanup();
        waiter.resolve(this.start(lane, now));
      }
    }
    if (wake !== Infinity) this.timer = this.clock.setTimeout(() => this.pump(), Math.min(wake - now, MAX_TIMER_MS));
  }

  private remove(waiter: Waiter): boolean {
    const queue = this.queues[waiter.lane];
    const at = queue.indexOf(waiter);
    if (at >= 0) queue.splice(at, 1);
    return at >= 0;
  }

  private rejectAll(error: ApiError): void {
    for (const waiter of this.queues.user.splice(0).concat(this.queues.background.splice(0))) {
      waiter.cleanup();
      waiter.reject(error);
    }
  }

  /** A hold longer than `maxHoldMs` fails requests at once, saying how long the server asked for. */
  private tooLong(now: number): ApiError | undefined {
    const until = Math.max(this.heldUntil, this.server && this.server.remaining <= 0 ? this.server.resetAt : 0);
    if (until - now <= this.maxHoldMs) return undefined;
    const asked = describeWait(Math.max(this.askedUntil, until) - now);
    return new ApiError('rateLimited', `The server asked to wait ${asked} before the next request.`, {
      retryAfterMs: until - now,
      maybeSent: false,
    });
  }
}

/** One limiter per key (held as a hash) and origin, outliving the clients: a rebuilt client keeps the count. */
export class LimiterRegistry {
  private readonly limiters = new Map<string, RateLimiter>();

  /** A second longer than the server's minute, so latency cannot make it count 121. */
  constructor(
    private readonly windowMs = 61_000,
    private readonly clock?: Clock,
  ) {}

  get(key: string, origin: string, limit: number): RateLimiter {
    const id = `${keyFingerprint(key)} ${origin}`;
    const known = this.limiters.get(id);
    if (known) known.setLimit(limit);
    const limiter = known ?? new RateLimiter({ limit, windowMs: this.windowMs, clock: this.clock });
    this.limiters.set(id, limiter);
    return limiter;
  }

  dispose(): void {
    for (const limiter of this.limiters.values()) limiter.dispose();
    this.limiters.clear();
  }
}

function queueFull(): ApiError {
  return new ApiError('rateLimited', 'Too many requests are waiting for the API; this one was not sent.', {
    maybeSent: false,
    reason: { rule: 'queueFull' },
  });
}

function notSent(waitMs: number): ApiError {
  const wait = describeWait(waitMs);
  return new ApiError('rateLimited', `The request was not sent: the rate limit would have delayed it by ${wait}.`, {
    retryAfterMs: waitMs,
    maybeSent: false,
  });
}

/** "40 s", "5 min", "3 h", "31 years": enough to decide whether to wait. */
function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  const days = Math.round(hours / 24);
  return days < 730 ? `${days} days` : `${Math.round(days / 365)} years`;
}
