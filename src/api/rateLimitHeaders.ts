import { MAX_HOLD_MS, type RateLimiter } from './RateLimiter';
import { parseRateLimitReset, parseRetryAfter } from './response';
import { type TransportResponse } from './transport';

/** A 429 without `Retry-After` still means "not now": a short wait spares the server a burst of retries. */
const DEFAULT_429_WAIT_MS = 5_000;

/**
 * Feeds what a response says about the limit into the limiter of its key and origin: `X-RateLimit-Remaining`/`-Reset`
 * (so several windows on one key stay under it together), a 429 itself (which lowers the limit in force, headers or
 * not) and `Retry-After` on 429 and 503. Returns a line for the log when the server asked for a longer wait than is
 * ever held.
 */
export function observeRateLimit(limiter: RateLimiter, response: TransportResponse, now: number): string | undefined {
  const { headers, status } = response;
  const remainingText = headers['x-ratelimit-remaining'];
  const remaining =
    remainingText !== undefined && /^\d{1,9}$/.test(remainingText.trim()) ? Number(remainingText) : undefined;
  const resetAt = parseRateLimitReset(headers['x-ratelimit-reset'], now);
  if (remaining !== undefined && resetAt !== undefined) limiter.observeServer(remaining, resetAt);
  let asked = remaining === 0 && resetAt !== undefined ? resetAt - now : 0;
  if (status === 429) limiter.refused();
  if (status === 429 || status === 503) {
    const wait = parseRetryAfter(headers['retry-after'], now) ?? (status === 429 ? DEFAULT_429_WAIT_MS : 0);
    if (wait > 0) limiter.holdUntil(now + wait);
    asked = Math.max(asked, wait);
  }
  if (asked <= MAX_HOLD_MS) return undefined;
  const until = new Date(Math.min(now + asked, 8.64e15)).toISOString();
  return `the server asks to wait until ${until}; requests are held for ${MAX_HOLD_MS / 60_000} min at most, then tried again`;
}
