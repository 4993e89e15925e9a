import { type Clock, systemClock } from '../api/clock';
import { Disposable, toDisposable } from '../util/lifecycle';
import { type Store } from './Store';
import { type DataKind } from './types';

export interface Visibility {
  readonly ordersVisible: boolean;
  readonly invoicesVisible: boolean;
  readonly focused: boolean;
}

/** Slow-moving data is refreshed this many times less often than the orders. */
const BALANCE_FACTOR_VISIBLE = 5;
const BALANCE_FACTOR_HIDDEN = 10;
const INVOICES_FACTOR = 10;
/** Floors, so a very short interval setting cannot make the balance or invoices chatty. */
const BALANCE_MIN_MS = 5 * 60_000;
const INVOICES_MIN_MS = 10 * 60_000;

/**
 * Decides when each datum is refreshed in the background: orders on the configured interval while their view is
 * visible and the window focused; the balance (always in the status bar) far less often; invoices while their view is
 * visible; nothing at all while the window is unfocused. One timer, set for the next datum due.
 */
export class RefreshScheduler extends Disposable {
  private visibility: Visibility = { ordersVisible: false, invoicesVisible: false, focused: true };
  private intervalMs: number;
  private timer: unknown;

  constructor(
    private readonly store: Store,
    intervalSeconds: number,
    private readonly clock: Clock = systemClock,
  ) {
    super();
    this.intervalMs = Math.max(0, intervalSeconds) * 1000;
    this.register(toDisposable(() => this.cancel()));
    this.register(store.onDidChangeState(() => this.evaluate()));
    this.register(store.onDidChangeData(() => this.schedule()));
  }

  setVisibility(change: Partial<Visibility>): void {
    this.visibility = { ...this.visibility, ...change };
    this.evaluate();
  }

  setInterval(seconds: number): void {
    this.intervalMs = Math.max(0, seconds) * 1000;
    this.evaluate();
  }

  /** When each datum is next due, or undefined when it is not refreshed in the background now. */
  dueAt(kind: DataKind): number | undefined {
    const { ordersVisible, invoicesVisible, focused } = this.visibility;
    const state = this.store.state;
    if (!focused || (state !== 'ready' && state !== 'loading' && state !== 'unreachable')) return undefined;
    const slot = this.store.slot(kind);
    const last = slot.updatedAt;
    // Never loaded: due now. Failed: due an interval after the failure, as after a success, so an outage is retried
    // at the usual pace and no faster.
    const since = slot.error ? slot.failedAt : last;
    switch (kind) {
      case 'orders':
        if (!ordersVisible) return undefined;
        if (since === undefined) return this.clock.now();
        return this.intervalMs > 0 ? since + this.intervalMs : undefined;
      case 'balance': {
        if (since === undefined) return this.clock.now();
        if (this.intervalMs === 0) return undefined;
        const factor = ordersVisible ? BALANCE_FACTOR_VISIBLE : BALANCE_FACTOR_HIDDEN;
        return since + Math.max(BALANCE_MIN_MS, this.intervalMs * factor);
      }
      case 'invoices':
        if (!invoicesVisible) return undefined;
        if (since === undefined) return this.clock.now();
        return this.intervalMs > 0 ? since + Math.max(INVOICES_MIN_MS, this.intervalMs * INVOICES_FACTOR) : undefined;
      case 'account':
        // Read once for the status bar's tooltip (retried after a failure); the account summary refreshes it.
        if (last !== undefined) return undefined;
        return since === undefined ? this.clock.now() : since + BALANCE_MIN_MS;
    }
  }

  /** Refreshes whatever is due now, then sets the timer for the next. */
  evaluate(): void {
    if (this.disposed) return;
    const now = this.clock.now();
    const due = (['orders', 'balance', 'invoices', 'account'] as const).filter((kind) => {
      const at = this.dueAt(kind);
      return at !== undefined && at <= now && !this.loading(kind);
    });
    if (due.length) void this.store.refresh(due, 'background');
    this.schedule();
  }

  private loading(kind: DataKind): boolean {
    return this.store.slot(kind).loading;
  }

  private schedule(): void {
    this.cancel();
    if (this.disposed) return;
    const times = (['orders', 'balance', 'invoices', 'account'] as const)
      .filter((kind) => !this.loading(kind))
      .map((kind) => this.dueAt(kind))
      .filter((at): at is number => at !== undefined);
    if (!times.length) return;
    const wait = Math.max(0, Math.min(...times) - this.clock.now());
    // Never a hot loop: a datum that is due but cannot load is looked at again a second later at the soonest.
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        this.evaluate();
      },
      Math.max(wait, 1_000),
    );
  }

  private cancel(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
