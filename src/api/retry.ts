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
 * pass. A POST is retried only on 429, which means the server refused it unprocessed: after anything else it may
 * have reached the server, and a second start/stop/reinstall must never be sent behind the user's back.
 */
export function retryDelay(
  policy: RetryPolicy,
  method: string,
  error: ApiError,
  attempt: number,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.maxAttempts) return undefined;
  const retryable =
    error.kind === 'rateLimited' ||
    (method === 'GET' && ((error.kind === 'network' && !error.tls) || [502, 503, 504].includes(error.status ?? 0)));
  if (!retryable) return undefined;
  if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) return undefined;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Jitter spreads the retries of several windows; the limiter adds any Retry-After hold on top.
  return Math.round(backoff / 2 + random() * (backoff / 2));
}
