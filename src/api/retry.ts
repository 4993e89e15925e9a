import { type ApiError } from './errors';

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

// A POST is never sent again: one click, one POST.
export function retryDelay(
  policy: RetryPolicy,
  method: string,
  error: ApiError,
  attempt: number,
  random: () => number = Math.random,
  background = false,
): number | undefined {
  if (method !== 'GET' || attempt >= policy.maxAttempts) return undefined;
  // The scheduler backs off instead, except for a kept-alive socket the server had closed (tried once).
  if (background && (error.kind !== 'network' || attempt > 1)) return undefined;
  const retryable =
    error.kind === 'rateLimited'
      ? attempt === 1
      : (error.kind === 'network' && !error.tls) || [502, 503, 504].includes(error.status ?? 0);
  if (!retryable) return undefined;
  if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) return undefined;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(backoff / 2 + random() * (backoff / 2));
}
