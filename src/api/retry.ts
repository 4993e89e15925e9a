import { type ApiError } from './errors';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited for by a retry: the error goes to the caller. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

/**
 * How long to wait before trying again, or undefined to give up. Reads are retried on failures that are likely to
 * pass. A POST is sent again at most once, and only when the server answered that it did not process it: a 429, or a
 * 503 that says when to come back. After anything else (a network error, a timeout, another status) it may have
 * reached the server, and a second start/stop/reinstall must never be sent behind the user's back. `answered` is
 * whether the API itself answered this attempt (not a proxy, not the limiter).
 */
export function retryDelay(
  policy: RetryPolicy,
  method: string,
  error: ApiError,
  attempt: number,
  random: () => number = Math.random,
  answered = false,
  background = false,
): number | undefined {
  if (attempt >= policy.maxAttempts) return undefined;
  // A background read is not repeated on a failing or limiting server: the account's schedule backs off instead
  // (doubling, up to five minutes), so an account that is down costs one request per read, not three. One exception:
  // a connection that broke at once (a kept-alive socket the server had closed) is tried again, once. The user's
  // reads still retry.
  if (background && method === 'GET' && (error.kind !== 'network' || attempt > 1)) return undefined;
  const retryable =
    method === 'GET'
      ? error.kind === 'rateLimited' ||
        (error.kind === 'network' && !error.tls) ||
        [502, 503, 504].includes(error.status ?? 0)
      : attempt === 1 && answered && notProcessed(error);
  if (!retryable) return undefined;
  if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) return undefined;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Jitter spreads the retries of several windows; the limiter adds any Retry-After hold on top.
  return Math.round(backoff / 2 + random() * (backoff / 2));
}

/** The answer says the request was refused before any work was done on it. */
function notProcessed(error: ApiError): boolean {
  if (error.status === 429) return error.kind === 'rateLimited';
  return error.status === 503 && error.kind === 'server' && error.retryAfterMs !== undefined;
}
