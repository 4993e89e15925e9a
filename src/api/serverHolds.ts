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
 * A budget that was this low when the server last spoke is not assumed full again once its reset time passes: the
 * reset of a rolling window frees one slot, not all of them, and other windows on the key wait for the same moment.
 */
const PROBE_BELOW = 8;
/** What the server said of its budget is forgotten this long after its reset time, when nothing newer came. */
const FORGET_AFTER_MS = 60_000;

/**
 * What the server said of the limit: a `Retry-After` hold and its last `X-RateLimit-Remaining`/`-Reset`. Waits it asks
 * for are capped at MAX_HOLD_MS; the time it named is kept to be shown.
 */
export class ServerHolds {
  private heldUntil = 0;
  /** What the server asked for, when that was longer than we hold: shown to the user. */
  private requestedUntil = 0;
  private server?: { remaining: number; resetAt: number };
  /** Requests let through after a low budget's reset time, not answered yet: one at a time until the server says. */
  private probes = 0;

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

  /** One request let through: spent from the server's budget as last told. True when it probes a reset budget. */
  spend(now: number): boolean {
    if (this.server && this.server.resetAt > now) this.server.remaining--;
    else if (this.probing(now)) {
      this.probes++;
      return true;
    }
    return false;
  }

  /** A probe's answer (or failure) is in; what the server said, if anything, was observed first. */
  settle(probe: boolean): void {
    if (probe) this.probes = Math.max(0, this.probes - 1);
  }

  /** When the server lets the next request of this priority start, or 0 if now; never while a probe is out. */
  nextSlotAt(now: number, priority: RequestPriority): number {
    let at = this.heldUntil > now ? this.heldUntil : 0;
    const floor = priority === 'user' ? 0 : SERVER_RESERVE;
    if (this.server && this.server.resetAt > now && this.server.remaining <= floor) {
      at = Math.max(at, this.server.resetAt);
    }
    if (this.probes > 0 && this.probing(now)) return Number.POSITIVE_INFINITY;
    return at;
  }

  /** The server's low budget reached its reset time and it has not spoken since (recently). */
  private probing(now: number): boolean {
    if (!this.server || this.server.resetAt > now || this.server.remaining > PROBE_BELOW) return false;
    if (this.server.resetAt + FORGET_AFTER_MS > now) return true;
    this.server = undefined;
    return false;
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
