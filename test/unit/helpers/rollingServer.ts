import { type TransportResponse } from '../../../src/api/transport';

/**
 * A server that allows `limit` requests per key in any rolling `windowMs` and answers at once, as the spec's
 * "120 per minute" reads: refused requests are not counted. With `headers`, it says so as the mock does
 * (`X-RateLimit-*` on every answer, `Retry-After` on a 429); without, a 429 is all it says.
 */
export class RollingServer {
  readonly accepted: number[] = [];
  readonly refused: number[] = [];
  private recent: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly headers: boolean,
  ) {}

  answer(now: number): TransportResponse {
    this.recent = this.recent.filter((t) => t > now - this.windowMs);
    const allowed = this.recent.length < this.limit;
    if (allowed) {
      this.recent.push(now);
      this.accepted.push(now);
    } else {
      this.refused.push(now);
    }
    const expiresAt = (this.recent[0] ?? now) + this.windowMs;
    const headers: Record<string, string> = {};
    if (this.headers) {
      headers['x-ratelimit-limit'] = String(this.limit);
      headers['x-ratelimit-remaining'] = String(Math.max(0, this.limit - this.recent.length));
      headers['x-ratelimit-reset'] = String(Math.ceil(expiresAt / 1000));
      if (!allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((expiresAt - now) / 1000)));
    }
    const body = allowed ? '{"balance":1}' : '{"error":"rate_limited"}';
    return { status: allowed ? 200 : 429, headers, body, bytes: body.length };
  }

  /** Answers in [from, to): accepted and refused. */
  between(from: number, to: number): { accepted: number; refused: number } {
    const count = (times: readonly number[]): number => times.filter((t) => t >= from && t < to).length;
    return { accepted: count(this.accepted), refused: count(this.refused) };
  }
}
