import { type Clock, systemClock } from '../api/clock';
import { Disposable, toDisposable } from '../util/lifecycle';
import { KINDS } from './resources';
import { type Store } from './Store';
import { type DataKind, type Slot } from './types';

export interface Visibility {
  readonly ordersVisible: boolean;
  readonly invoicesVisible: boolean;
  readonly focused: boolean;
}

export interface Intervals {
  readonly refreshSeconds: number;
  readonly watchMinutes: number;
}

const BALANCE_FACTOR_VISIBLE = 5;
const BALANCE_FACTOR_HIDDEN = 10;
const INVOICES_FACTOR = 10;
const BALANCE_MIN_MS = 5 * 60_000;
const INVOICES_MIN_MS = 10 * 60_000;
export const MAX_BACKOFF_MS = 5 * 60_000;
/** The watch goes on this long after focus is lost: the user may be reading a server's page. */
export const RECENT_FOCUS_MS = 15 * 60_000;

export class Scheduler extends Disposable {
  private visibility: Visibility = { ordersVisible: false, invoicesVisible: false, focused: true };
  private refreshMs: number;
  private watchMs: number;
  private lastFocusAt: number;
  private timer: unknown;

  constructor(
    private readonly store: Store,
    intervals: Intervals,
    private readonly clock: Clock = systemClock,
  ) {
    super();
    this.refreshMs = refreshMs(intervals.refreshSeconds);
    this.watchMs = watchMs(intervals.watchMinutes);
    this.lastFocusAt = clock.now();
    this.register(toDisposable(() => this.cancel()));
    this.register(store.onDidChangeState(() => this.evaluate()));
    this.register(store.onDidChangeData(() => this.schedule()));
    this.register(store.onDidChangeSettling(() => this.schedule()));
  }

  setVisibility(change: Partial<Visibility>): void {
    if (this.visibility.focused && change.focused === false) this.lastFocusAt = this.clock.now();
    this.visibility = { ...this.visibility, ...change };
    if (this.visibility.focused) this.lastFocusAt = this.clock.now();
    this.evaluate();
  }

  setIntervals(change: Partial<Intervals>): void {
    if (change.refreshSeconds !== undefined) this.refreshMs = refreshMs(change.refreshSeconds);
    if (change.watchMinutes !== undefined) this.watchMs = watchMs(change.watchMinutes);
    this.evaluate();
  }

  dueAt(kind: DataKind): number | undefined {
    const { ordersVisible, invoicesVisible, focused } = this.visibility;
    const state = this.store.state;
    if (state !== 'ready' && state !== 'loading' && state !== 'unreachable') return undefined;
    const slot = this.store.slot(kind);
    const now = this.clock.now();
    const since = slot.error ? slot.failedAt : slot.updatedAt;
    if (kind === 'orders' && !ordersVisible) return this.watchDueAt(slot, since, now);
    if (!focused) return undefined;
    switch (kind) {
      case 'orders':
        if (since === undefined) return now;
        return this.refreshMs > 0 ? since + backoff(slot, this.refreshMs) : undefined;
      case 'balance': {
        if (since === undefined) return now;
        if (this.refreshMs === 0) return undefined;
        const factor = ordersVisible ? BALANCE_FACTOR_VISIBLE : BALANCE_FACTOR_HIDDEN;
        return since + backoff(slot, Math.max(BALANCE_MIN_MS, this.refreshMs * factor));
      }
      case 'invoices':
        if (!invoicesVisible) return undefined;
        if (since === undefined) return now;
        return this.refreshMs > 0
          ? since + backoff(slot, Math.max(INVOICES_MIN_MS, this.refreshMs * INVOICES_FACTOR))
          : undefined;
      case 'account':
        // Read once (the status bar's tooltip); the account summary refreshes it.
        if (slot.updatedAt !== undefined) return undefined;
        return since === undefined ? now : since + backoff(slot, BALANCE_MIN_MS);
    }
  }

  // Never read (the view hidden since the window opened): now, or the watch would move on with the clock.
  private watchDueAt(slot: Slot<unknown>, since: number | undefined, now: number): number | undefined {
    if (this.watchMs === 0) return undefined;
    if (!this.visibility.focused && now - this.lastFocusAt > RECENT_FOCUS_MS) return undefined;
    return since === undefined ? now : since + backoff(slot, this.watchMs);
  }

  evaluate(): void {
    if (this.disposed) return;
    const now = this.clock.now();
    const due = KINDS.filter((kind) => {
      const at = this.dueAt(kind);
      return at !== undefined && at <= now && !this.store.slot(kind).loading;
    });
    if (due.length) void this.store.refresh(due, 'background');
    const settling = this.store.settlingDueAt();
    if (settling !== undefined && settling <= now) void this.store.pollSettling();
    this.schedule();
  }

  private schedule(): void {
    this.cancel();
    if (this.disposed) return;
    const times = KINDS.filter((kind) => !this.store.slot(kind).loading)
      .map((kind) => this.dueAt(kind))
      .filter((at): at is number => at !== undefined);
    const settling = this.store.settlingDueAt();
    if (settling !== undefined) times.push(settling);
    if (!times.length) return;
    const wait = Math.max(0, Math.min(...times) - this.clock.now());
    // Never a hot loop: what is due but cannot go is looked at a second later.
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

function backoff(slot: Slot<unknown>, normalMs: number): number {
  const failures = slot.error ? (slot.failedInARow ?? 1) : 0;
  if (failures <= 1 || normalMs >= MAX_BACKOFF_MS) return normalMs;
  return Math.min(MAX_BACKOFF_MS, normalMs * 2 ** Math.min(failures - 1, 16));
}

function refreshMs(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.max(10, seconds) * 1000;
}

function watchMs(minutes: number): number {
  if (!Number.isFinite(minutes) || minutes <= 0) return 0;
  return Math.max(1, Math.min(24 * 60, minutes)) * 60_000;
}
