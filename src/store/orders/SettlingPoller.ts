import { type Clock } from '../../api/clock';
import { Emitter } from '../../util/Emitter';
import { Disposable } from '../../util/lifecycle';
import { MAX_SETTLE_MS, pollDelayMs } from './orderSettling';

interface SettlingPollerHooks {
  pollOne(id: string): Promise<void>;
  /** Undefined when that would cost more than one request per order. */
  pollAll(): Promise<void> | undefined;
  gaveUp(id: string): void;
}

const BATCH_MS = 500;

/** No timer of its own: the account's scheduler calls `tick()`. */
export class SettlingPoller extends Disposable {
  private readonly entries = new Map<string, { since: number; nextAt: number }>();
  private ticking = false;
  private readonly onDidChangeEmitter = this.register(new Emitter<void>());
  readonly onDidChange = this.onDidChangeEmitter.event;

  constructor(
    private readonly hooks: SettlingPollerHooks,
    private readonly clock: Clock,
  ) {
    super();
  }

  add(id: string, since: number): void {
    this.entries.set(id, { since, nextAt: since + pollDelayMs(0) });
    this.onDidChangeEmitter.fire();
  }

  delete(id: string): void {
    if (this.entries.delete(id)) this.onDidChangeEmitter.fire();
  }

  clear(): void {
    if (!this.entries.size) return;
    this.entries.clear();
    this.onDidChangeEmitter.fire();
  }

  nextAt(): number | undefined {
    if (this.disposed || this.ticking || !this.entries.size) return undefined;
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.entries.values()) next = Math.min(next, entry.nextAt);
    return next;
  }

  async tick(): Promise<void> {
    if (this.ticking || this.disposed) return;
    const now = this.clock.now();
    for (const [id, entry] of this.entries) {
      if (now - entry.since < MAX_SETTLE_MS) continue;
      this.entries.delete(id);
      this.hooks.gaveUp(id);
    }
    const due = [...this.entries.entries()].filter(([, e]) => e.nextAt <= now + BATCH_MS).map(([id]) => id);
    if (!due.length) {
      this.onDidChangeEmitter.fire();
      return;
    }
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
    this.onDidChangeEmitter.fire();
  }
}
