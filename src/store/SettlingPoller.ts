import { type Clock, systemClock } from '../api/clock';
import { Disposable, toDisposable } from '../util/lifecycle';
import { pollDelayMs } from './orderSettling';

export interface SettlingPollerHooks {
  /** Polls one order. */
  pollOne(id: string): Promise<void>;
  /** Polls every order at once: cheaper than one request per order when several are settling. */
  pollAll(): Promise<void>;
}

/**
 * Polls only the orders that are settling after an action, each on its own backing-off schedule, and stops when
 * the set is empty. Due orders are polled together in one tick.
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

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
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
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.tick();
    }, Math.max(0, next - this.clock.now()));
  }

  private async tick(): Promise<void> {
    const now = this.clock.now();
    const due = [...this.entries.entries()].filter(([, e]) => e.nextAt <= now).map(([id]) => id);
    this.ticking = true;
    try {
      if (due.length > 1) await this.hooks.pollAll();
      else if (due[0] !== undefined) await this.hooks.pollOne(due[0]);
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
