/**
 * Our own count of a rolling window: at most `limit` requests in any `windowMs`.
 *
 * A request counts from the moment it is let through until `windowMs` after its answer came back. The server counts
 * it from its arrival, which may be much later than our start when the connection pool queues it or the network is
 * slow; counting from the answer is always later than the arrival, so our window never frees a slot before the
 * server's does.
 */
export class RequestWindow {
  /** When each finished request's answer came back, oldest first. */
  private readonly sent: number[] = [];
  private inFlight = 0;

  constructor(
    public limit: number,
    readonly windowMs: number,
  ) {}

  /** Requests let through whose answers are not in yet. */
  get pending(): number {
    return this.inFlight;
  }

  /** A request let through. */
  start(): void {
    this.inFlight++;
  }

  /** Its answer (or failure) is in: it counts until `windowMs` after `now`. */
  finish(now: number): void {
    this.inFlight--;
    // Kept sorted: answers can come back in any order, but each is stamped with the time it is released.
    this.sent.push(now);
  }

  /** Requests in flight or answered within the window. */
  used(now: number): number {
    this.prune(now);
    return this.sent.length + this.inFlight;
  }

  /**
   * When our count lets the next request start within `limit` (this window's own, unless a caller keeps some back): 0
   * if now, never while every slot is in flight (a release pumps).
   */
  nextSlotAt(now: number, limit = this.limit): number {
    this.prune(now);
    if (limit < 1 || this.inFlight >= limit) return Number.POSITIVE_INFINITY;
    if (this.sent.length + this.inFlight < limit) return 0;
    return (this.sent[this.sent.length + this.inFlight - limit] ?? now) + this.windowMs;
  }

  private prune(now: number): void {
    let drop = 0;
    while (drop < this.sent.length && (this.sent[drop] ?? 0) <= now - this.windowMs) drop++;
    if (drop) this.sent.splice(0, drop);
  }
}
