import { type Clock, systemClock } from '../../api/clock';
import { Disposable, toDisposable } from '../../util/lifecycle';
import { MAX_SETTLE_MS, pollDelayMs } from './orderSettling';

export interface SettlingPollerHooks {
  /** Polls one order. */
  pollOne(id: string): Promise<void>;
  /** Polls every order at once, or undefined when that would cost more than one request per order (a long list). */
  pollAll(): Promise<void> | undefined;
  /** An order has been settling for longer than anyone should wait: stop tracking it. */
  gaveUp(id: string): void;
}

/** Orders due within this much of each other are polled in the same tick. */
const BATCH_MS = 500;

/**
 * Polls only the orders that are settling after an action, each on its own backing-off schedule, and stops when
 * the set is empty or an order has settled for too long without news (failing polls included).
 */
export class SettlingPoller extends Disposable {
  private readonly entries = new Map<string, { since: number; nextAt: number }>();
  private timer: unknown;
  private ticking = false;

  constructor(
    private readonly hooks: SettlingPollerHooks,
    private readonly clock: Clock = systemClock,
  ) {
    super();
    this.register(toDisposable(() => this.cancelTimer()));
  }

  add(id: string, since = this.clock.now()): void {
    this.entries.set(id, { since, nextAt: since + pollDelayMs(0) });
    this.schedule();
  }

  delete(id: string): void {
    this.entries.delete(id);
    if (!this.entries.size) this.cancelTimer();
  }

  clear(): void {
    this.entries.clear();
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    this.cancelTimer();
    if (this.disposed || this.ticking || !this.entries.size) return;
    const next = Math.min(...[...this.entries.values()].map((e) => e.nextAt));
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        void this.tick();
      },
      Math.max(0, next - this.clock.now()),
    );
  }

  private async tick(): Promise<void> {
    const now = this.clock.now();
    for (const [id, entry] of this.entries) {
      if (now - entry.since < MAX_SETTLE_MS) continue;
      this.entries.delete(id);
      this.hooks.gaveUp(id);
    }
    const due = [...this.entries.entries()].filter(([, e]) => e.nextAt <= now + BATCH_MS).map(([id]) => id);
    this.ticking = true;
    try {
      const all = due.length > 1 ? this.hooks.pollAll() : undefined;
      if (all) await all;
      else await Promise.all(due.map((id) => this.hooks.pollOne(id)));
    } catch {
      // The hooks report their own failures; polling goes on with the next delay.
    } finally {
      this.ticking = false;
    }
    const after = this.clock.now();
    for (const id of due) {
      const entry = this.entries.get(id);
      if (entry) entry.nextAt = after + pollDelayMs(after - entry.since);
    }
    this.schedule();
  }
}
