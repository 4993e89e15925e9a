import { type Clock, systemClock } from './clock';
import { ApiError, cancelledError } from './errors';
import { createHash } from 'node:crypto';
import { keyFingerprint } from './keyFingerprint';
import { parseRateLimitReset, parseRetryAfter } from './response';
import { type RequestPriority, type Urgency } from './SharedRequests';

export interface RateLimitStatus {
  readonly limit: number;
  readonly used: number;
  readonly remaining: number;
  readonly queued: number;
  readonly heldUntil?: number;
}

// A 429 is not `counted`: the server does not count it.
export type Release = (counted?: boolean) => void;

export interface AcquireOptions {
  readonly signal?: AbortSignal;
  readonly priority?: RequestPriority;
  readonly urgency?: Urgency;
  // An action must not go out long after the click.
  readonly maxWaitMs?: number;
  readonly onWait?: (until: number) => void;
}

export const MAX_HOLD_MS = 5 * 60_000;
// Of the server's budget (and of ours, up to an eighth), background reads leave this much to the user.
const RESERVE = 4;
// So that a 429 stops a queue of background reads instead of answering all of them.
const BACKGROUND_IN_FLIGHT = 2;
const DEFAULT_429_HOLD_MS = 5_000;
const MAX_TIMER_MS = 60_000;

/** Where the windows of this machine see each other's holds: `globalState` (never synced; a hold is this machine's). */
export interface SharedState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): unknown;
}

interface Waiter {
  readonly lane: () => RequestPriority;
  readonly resolve: (release: Release) => void;
  readonly reject: (error: ApiError) => void;
  readonly cleanup: () => void;
}

// For a window after a 429, background reads only replace ours the server took (other windows share the key); a hold
// one window meets holds the others too, which then also only replace their own: they do not all burst after it.
export class RateLimiter {
  private readonly answered: number[] = [];
  private readonly inFlight: Record<RequestPriority, number> = { user: 0, background: 0 };
  private readonly queue: Waiter[] = [];
  private heldUntil = 0;
  private server?: { remaining: number; resetAt: number };
  // A background read sent after a low budget's reset time: the others wait for its answer.
  private probing = false;
  private replaceOwn?: { until: number; count: number };
  private limitedAt = -Infinity;
  private timer: unknown;

  constructor(
    private limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock = systemClock,
    private readonly maxHoldMs = 60_000,
    private readonly maxQueued = 256,
    private readonly shared?: { get(): number | undefined; set(until: number): unknown },
  ) {}

  setLimit(limit: number): void {
    this.limit = limit;
    this.pump();
  }

  acquire({ signal, priority, urgency, maxWaitMs, onWait }: AcquireOptions = {}): Promise<Release> {
    if (signal?.aborted) return Promise.reject(cancelledError());
    const now = this.clock.now();
    const lane = (): RequestPriority => urgency?.priority ?? priority ?? 'background';
    const at = this.nextAt(lane(), now);
    const tooLate = maxWaitMs !== undefined && at !== Infinity && at - now > maxWaitMs;
    const refusal = this.tooLong(now) ?? (tooLate ? notSent(at - now) : undefined);
    if (refusal) return Promise.reject(refusal);
    if (this.queue.length >= this.maxQueued) {
      // The oldest background read gives way; a user's request only when every one waiting is the user's.
      const oldest = this.first('background');
      if (!oldest) return Promise.reject(queueFull());
      this.settle(oldest, queueFull());
    }
    return new Promise<Release>((resolve, reject) => {
      const leave = (error: ApiError): void => {
        this.settle(waiter, error);
        this.pump();
      };
      const onAbort = (): void => leave(cancelledError());
      const deadline =
        maxWaitMs === undefined ? undefined : this.clock.setTimeout(() => leave(notSent(maxWaitMs)), maxWaitMs);
      const stopListening = urgency?.onRaise(() => this.pump());
      const cleanup = (): void => {
        signal?.removeEventListener('abort', onAbort);
        stopListening?.();
        if (deadline !== undefined) this.clock.clearTimeout(deadline);
      };
      const waiter: Waiter = { lane, resolve, reject, cleanup };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
      const until = this.queue.includes(waiter) ? this.nextAt(lane(), now) : 0;
      if (until) onWait?.(until === Infinity ? now : until);
    });
  }

  // Told before the release; returns a line for the log when the server asks too much.
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
      // A Retry-After is trusted once: one that a 429 soon proves wrong while we used an eighth of our limit (other
      // windows on the key) caps us as none does; a window that used less is not what spends the key.
      const wrong = now - this.limitedAt < this.windowMs && this.answered.length > this.limit >> 3;
      if (status === 429 && (wait === undefined || wrong)) {
        this.replaceOwn = { until: now + this.windowMs, count: this.answered.length };
      }
      if (status === 429) this.limitedAt = now;
      const hold = wait ?? (status === 429 ? DEFAULT_429_HOLD_MS : 0);
      this.heldUntil = Math.max(this.heldUntil, now + Math.min(hold, MAX_HOLD_MS));
      if (hold > 0) this.shared?.set(this.heldUntil);
      asked = Math.max(asked, hold);
    }
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
      queued: this.queue.length,
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

  /** 0 if now; Infinity until a release. */
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

  private stale(now: number): boolean {
    return this.server !== undefined && this.server.resetAt <= now && this.server.remaining <= RESERVE;
  }

  private start(lane: RequestPriority, now: number): Release {
    this.inFlight[lane]++;
    const probe = lane === 'background' && this.stale(now);
    if (probe) this.probing = true;
    else if (this.server && this.server.resetAt > now) this.server.remaining--;
    let released = false;
    return (counted = true) => {
      if (released) return;
      released = true;
      this.inFlight[lane]--;
      if (counted) this.answered.push(this.clock.now());
      if (probe) {
        this.probing = false;
        if (this.stale(this.clock.now())) this.server = undefined;
      }
      this.pump();
    };
  }

  private pump(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const now = this.clock.now();
    // Another window's hold, bounded as our own.
    const shared = Math.min(this.shared?.get() ?? 0, now + MAX_HOLD_MS);
    if (shared > Math.max(now, this.heldUntil)) {
      this.heldUntil = shared;
      this.replaceOwn = { until: now + this.windowMs, count: this.answered.length };
    }
    let wake = Infinity;
    for (const lane of ['user', 'background'] as const) {
      for (let waiter = this.first(lane); waiter; waiter = this.first(lane)) {
        const at = this.nextAt(lane, now);
        if (at > now) {
          wake = Math.min(wake, at);
          break;
        }
        this.settle(waiter, this.start(lane, now));
      }
    }
    if (wake !== Infinity) this.timer = this.clock.setTimeout(() => this.pump(), Math.min(wake - now, MAX_TIMER_MS));
  }

  private first(lane: RequestPriority): Waiter | undefined {
    return this.queue.find((waiter) => waiter.lane() === lane);
  }

  private settle(waiter: Waiter, outcome: Release | ApiError): void {
    const at = this.queue.indexOf(waiter);
    if (at < 0) return;
    this.queue.splice(at, 1);
    waiter.cleanup();
    if (outcome instanceof ApiError) waiter.reject(outcome);
    else waiter.resolve(outcome);
  }

  private rejectAll(error: ApiError): void {
    for (const waiter of [...this.queue]) this.settle(waiter, error);
  }

  private tooLong(now: number): ApiError | undefined {
    const until = Math.max(this.heldUntil, this.server && this.server.remaining <= 0 ? this.server.resetAt : 0);
    if (until - now <= this.maxHoldMs) return undefined;
    const message = `Requests to this API are held until ${new Date(until).toISOString()}, as the server asked.`;
    return new ApiError('rateLimited', message, { retryAfterMs: until - now, maybeSent: false });
  }
}

// Outlives the clients: a rebuilt client keeps the count.
export class LimiterRegistry {
  private readonly limiters = new Map<string, RateLimiter>();

  // A second longer than the server's minute, so latency cannot make it count 121.
  constructor(
    private readonly windowMs = 61_000,
    private readonly clock?: Clock,
    private readonly shared?: SharedState,
  ) {}

  get(key: string, origin: string, limit: number): RateLimiter {
    const id = `${keyFingerprint(key)} ${origin}`;
    // Shared under a digest that tells keys apart and gives nothing of one away.
    const held = `hostingAccount.rateLimitHold.${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;
    const { shared } = this;
    const board = shared && {
      get: () => Number(shared.get(held)) || undefined,
      set: (at: number) => shared.update(held, at),
    };
    const limiter = this.limiters.get(id) ?? new RateLimiter(limit, this.windowMs, this.clock, 60_000, 256, board);
    limiter.setLimit(Math.max(1, Math.floor(limit)));
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
  const message = `The request was not sent: the rate limit would have delayed it by ${Math.ceil(waitMs / 1000)} s.`;
  return new ApiError('rateLimited', message, { retryAfterMs: waitMs, maybeSent: false });
}
