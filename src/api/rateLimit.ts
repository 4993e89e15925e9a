import { type Clock } from './clock';
import { ApiError } from './errors';

export type RequestPriority = 'user' | 'background';

export interface RateLimitStatus {
  /** Requests allowed in the window now: the configured limit, or less while the server's 429s have lowered it. */
  readonly limit: number;
  /** The configured limit, which `limit` recovers to. */
  readonly configuredLimit: number;
  readonly windowMs: number;
  /** Requests sent in the current rolling window. */
  readonly used: number;
  /** What is left: the smaller of our own budget and the server's `X-RateLimit-Remaining`, when it sent one. */
  readonly remaining: number;
  readonly queued: number;
  /** Set while a `Retry-After` (or an exhausted server budget) holds every request. */
  readonly heldUntil?: number;
  /** When the server asked for a longer wait than is held: the time it named. */
  readonly requestedUntil?: number;
}

/** Held while a request is on its way; `release` when its answer (or failure) is in. */
export interface Permit {
  release(): void;
}

export interface RateLimiterOptions {
  readonly limit: number;
  readonly windowMs: number;
  readonly clock?: Clock;
  /** A hold longer than this fails requests at once instead of queueing them for minutes. */
  readonly maxHoldMs?: number;
  /**
   * Requests waiting at most. At the cap the oldest background request waiting is refused ("not sent") to make room;
   * a user's request is refused only when every waiting request is the user's.
   */
  readonly maxQueued?: number;
}

export interface AcquireOptions {
  readonly signal?: AbortSignal;
  readonly priority?: RequestPriority;
  /** A priority a user may raise while the request waits (when they join it); wins over `priority`. */
  readonly urgency?: Urgency;
  /** Give up with "not sent" rather than wait longer than this (an action must not go out long after the click). */
  readonly maxWaitMs?: number;
  /** Told when the request has to wait, and until when, so the user can be shown why nothing happens yet. */
  readonly onWait?: (until: number) => void;
}

/**
 * A request's priority, which rises to the user's when a user joins the request while it waits (a Refresh clicked
 * while the background refresh of the same datum queues for the limit). It never falls.
 */
export class Urgency {
  private readonly listeners = new Set<() => void>();

  constructor(private current: RequestPriority = 'background') {}

  get priority(): RequestPriority {
    return this.current;
  }

  raise(): void {
    if (this.current === 'user') return;
    this.current = 'user';
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }

  /** Told once, when the priority rises; returns how to stop listening. */
  onRaise(listener: () => void): () => void {
    if (this.current === 'user') return () => undefined;
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Too many requests wait already: this one (a background read, or the oldest of them) is not sent. */
export function queueFullError(): ApiError {
  return new ApiError('rateLimited', 'Too many requests are waiting for the API; this one was not sent.', {
    maybeSent: false,
    reason: { rule: 'queueFull' },
  });
}

/** The server asked for a wait (`askedMs` from now) too long to queue for: the request fails at once, unsent. */
export function tooLongError(waitMs: number, askedMs: number): ApiError {
  return new ApiError('rateLimited', `The server asked to wait ${describeWait(askedMs)} before the next request.`, {
    retryAfterMs: waitMs,
    maybeSent: false,
  });
}

/** The request would have waited longer than its caller allows (an action long after the click): not sent. */
export function notSentError(waitMs: number): ApiError {
  return new ApiError(
    'rateLimited',
    `The request was not sent: the API's rate limit would have delayed it by ${describeWait(waitMs)} or more.`,
    { retryAfterMs: waitMs, maybeSent: false },
  );
}

/** "40 s", "5 min", "3 h", "31 years": enough to decide whether to wait. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  const days = Math.round(hours / 24);
  return days < 730 ? `${days} days` : `${Math.round(days / 365)} years`;
}
