import { type ApiError } from './errors';
import { type RequestPriority, tooLongError } from './rateLimit';

/** No server may hold us longer than this at a time: a longer wait it asks for is retried after this. */
export const MAX_HOLD_MS = 5 * 60_000;
/**
 * Slots of the server's budget (`X-RateLimit-Remaining`) that background requests leave alone. Other windows on the
 * same key spend from it too, and what the server last said is already stale by their requests in flight; the user's
 * own requests may still use these slots.
 */
const SERVER_RESERVE = 4;

/**
 * What the server said of the limit: a `Retry-After` hold and its last `X-RateLimit-Remaining`/`-Reset`. Waits it asks
 * for are capped at MAX_HOLD_MS; the time it named is kept to be shown.
 */
export class ServerHolds {
  private heldUntil = 0;
  /** What the server asked for, when that was longer than we hold: shown to the user. */
  private requestedUntil = 0;
  private server?: { remaining: number; resetAt: number };

  /** A `Retry-After` until `time`; true when the hold moved later. */
  holdUntil(time: number, now: number): boolean {
    if (!Number.isFinite(time)) return false;
    if (time > now + MAX_HOLD_MS) this.requestedUntil = Math.max(this.requestedUntil, time);
    const capped = Math.min(time, now + MAX_HOLD_MS);
    if (capped <= this.heldUntil) return false;
    this.heldUntil = capped;
    return true;
  }

  /** The server's budget as it last said; false when what it said is not a number. */
  observe(remaining: number, resetAt: number, now: number): boolean {
    if (!Number.isFinite(remaining) || !Number.isFinite(resetAt)) return false;
    if (remaining <= 0 && resetAt > now + MAX_HOLD_MS) this.requestedUntil = Math.max(this.requestedUntil, resetAt);
    this.server = { remaining: Math.max(0, Math.floor(remaining)), resetAt: Math.min(resetAt, now + MAX_HOLD_MS) };
    return true;
  }

  /** One request let through: spent from the server's budget as last told. */
  spend(now: number): void {
    if (this.server && this.server.resetAt > now) this.server.remaining--;
  }

  /** When the server lets the next request of this priority start, or 0 if now. */
  nextSlotAt(now: number, priority: RequestPriority): number {
    let at = this.heldUntil > now ? this.heldUntil : 0;
    const floor = priority === 'user' ? 0 : SERVER_RESERVE;
    if (this.server && this.server.resetAt > now && this.server.remaining <= floor) {
      at = Math.max(at, this.server.resetAt);
    }
    return at;
  }

  /** The time the server asked us to wait until, when it is longer than `maxHoldMs` and too far off to queue for. */
  holdError(now: number, maxHoldMs: number): ApiError | undefined {
    const serverHold = this.server && this.server.remaining <= 0 ? this.server.resetAt : 0;
    const until = Math.max(this.heldUntil, serverHold);
    const wait = until - now;
    if (wait <= maxHoldMs) return undefined;
    return tooLongError(wait, Math.max(this.requestedUntil, until) - now);
  }

  /** The server's share of the status: its remaining budget, and the holds still ahead. */
  status(now: number): { remaining?: number; heldUntil?: number; requestedUntil?: number } {
    const remaining = this.server && this.server.resetAt > now ? this.server.remaining : undefined;
    const heldUntil = Math.max(this.heldUntil, remaining === 0 && this.server ? this.server.resetAt : 0);
    return {
      remaining,
      heldUntil: heldUntil > now ? heldUntil : undefined,
      requestedUntil: this.requestedUntil > now ? this.requestedUntil : undefined,
    };
  }
}
