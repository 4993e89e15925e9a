/** After a 429, at most this share of what the server accepted from us in the last window is sent in the next. */
const DECREASE = 0.9;
/** Never lower than this share of the configured limit: a 429 caused by another tool must not starve the user. */
const FLOOR = 0.25;
/** A lowered limit climbs back to the configured one at this share of it per minute without a 429. */
const RECOVERY_PER_MINUTE = 1 / 120;

/**
 * How many requests a window may send, learnt from the server's 429s the way TCP finds a path's capacity (AIMD): a
 * 429 lowers the limit to a little less than what the server accepted from us in the last window, and the limit then
 * climbs back slowly. Several windows on one key each keep their own count; once their sum reaches the server's
 * limit, the one refused gives way, and the slow climb keeps them from meeting the limit again for minutes.
 */
export class Congestion {
  /** The limit right after the last 429, and when that was; none while the configured limit holds. */
  private lowered?: { limit: number; at: number };

  constructor(private ceiling: number) {}

  /** The configured limit changed (a setting). */
  setCeiling(ceiling: number): void {
    this.ceiling = ceiling;
  }

  /** The limit in force at `now`: the configured one, or a lowered one on its way back up. */
  limit(now: number): number {
    if (!this.lowered) return this.ceiling;
    const climbed = this.lowered.limit + (this.ceiling * RECOVERY_PER_MINUTE * (now - this.lowered.at)) / 60_000;
    if (climbed >= this.ceiling) {
      this.lowered = undefined;
      return this.ceiling;
    }
    return Math.floor(climbed);
  }

  /**
   * The server refused a request (429) while `accepted` of ours, counted over the last window, were not refused.
   * Several 429s in a row lower the limit once, to the share of what the server took rather than of what we sent.
   */
  refused(now: number, accepted: number): void {
    const floor = Math.max(1, Math.ceil(this.ceiling * FLOOR));
    const target = Math.max(floor, Math.floor(accepted * DECREASE));
    if (target < this.limit(now)) this.lowered = { limit: target, at: now };
  }
}
