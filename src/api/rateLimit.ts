import { type Clock } from './clock';
import { ApiError } from './errors';

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
  /** Requests waiting at most; more are refused at once (background reads coalesce long before this). */
  readonly maxQueued?: number;
}

export interface AcquireOptions {
  readonly signal?: AbortSignal;
  readonly priority?: RequestPriority;
  /** Give up with "not sent" rather than wait longer than this (an action must not go out long after the click). */
  readonly maxWaitMs?: number;
  /** Told when the request has to wait, and until when, so the user can be shown why nothing happens yet. */
  readonly onWait?: (until: number) => void;
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
