import { type Clock, systemClock } from '../api/clock';
import { Disposable, toDisposable } from '../util/lifecycle';
import { type Store } from './Store';
import { type DataKind, type Slot } from './types';

export interface Visibility {
  readonly ordersVisible: boolean;
  readonly invoicesVisible: boolean;
  readonly focused: boolean;
}

export interface Intervals {
  /** `hostingAccount.refreshInterval`: seconds between reads of the orders while their view is visible (0 = off). */
  readonly refreshSeconds: number;
  /** `hostingAccount.watchInterval`: minutes between reads of the orders while their view is hidden (0 = off). */
  readonly watchMinutes: number;
}

/** Slow-moving data is refreshed this many times less often than the orders. */
const BALANCE_FACTOR_VISIBLE = 5;
const BALANCE_FACTOR_HIDDEN = 10;
const INVOICES_FACTOR = 10;
/** Floors, so a very short interval setting cannot make the balance or invoices chatty. */
const BALANCE_MIN_MS = 5 * 60_000;
const INVOICES_MIN_MS = 10 * 60_000;
/** A datum that keeps failing in the background is read again after doubling waits, up to this. */
export const MAX_BACKOFF_MS = 5 * 60_000;
/** After the window loses focus the watch goes on this long (the user may be reading a server's page), then rests. */
export const RECENT_FOCUS_MS = 15 * 60_000;

const KINDS: readonly DataKind[] = ['orders', 'balance', 'invoices', 'account'];

/**
 * The one schedule of an account's background reads, on one timer: the orders on the refresh interval while their view
 * is visible and the window focused, a slow watch of them while the view is hidden (while the window is focused or was
 * a moment ago), the balance far less often, invoices while their view is visible, the account once, and the polls of
 * orders settling after an action. Nothing at all while the window is in the background, but those polls. A datum
 * that keeps failing backs off (doubling, up to five minutes); the user's Refresh never waits for this schedule.
 */
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

  /** When each datum is next due, or undefined when it is not read in the background now. */
  dueAt(kind: DataKind): number | undefined {
    const { ordersVisible, invoicesVisible, focused } = this.visibility;
    const state = this.store.state;
    if (state !== 'ready' && state !== 'loading' && state !== 'unreachable') return undefined;
    const slot = this.store.slot(kind);
    const now = this.clock.now();
    // Never loaded: due now. Failed: due a (backed-off) interval after the failure, so an outage is retried at the
    // usual pace at most, and ever more slowly while it lasts.
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
        // Read once for the status bar's tooltip (retried after a failure); the account summary refreshes it.
        if (slot.updatedAt !== undefined) return undefined;
        return since === undefined ? now : since + backoff(slot, BALANCE_MIN_MS);
    }
  }

  /** The watch of the hidden Orders view: changes made elsewhere are still noticed, at a slow pace. */
  private watchDueAt(slot: Slot<unknown>, since: number | undefined, now: number): number | undefined {
    const state = this.store.state;
    if (this.watchMs === 0 || (state !== 'ready' && state !== 'unreachable')) return undefined;
    if (!this.visibility.focused && now - this.lastFocusAt > RECENT_FOCUS_MS) return undefined;
    return (since ?? now) + backoff(slot, this.watchMs);
  }

  /** Reads whatever is due now and polls the settling orders that are, then sets the timer for the next. */
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
    // Never a hot loop: what is due but cannot go is looked at again a second later at the soonest.
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

/** After n failures in a row the wait doubles n - 1 times, up to MAX_BACKOFF_MS (a longer usual wait stays as it is). */
function backoff(slot: Slot<unknown>, normalMs: number): number {
  const failures = slot.error ? (slot.failedInARow ?? 1) : 0;
  if (failures <= 1 || normalMs >= MAX_BACKOFF_MS) return normalMs;
  return Math.min(MAX_BACKOFF_MS, normalMs * 2 ** Math.min(failures - 1, 16));
}

/** 0 turns automatic refresh off; anything else is at least 10 s, so no setting can make the extension chatty. */
function refreshMs(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.max(10, seconds) * 1000;
}

/** 0 turns the watch off; anything else is at least a minute and at most a day. */
export function watchMs(minutes: number): number {
  if (!Number.isFinite(minutes) || minutes <= 0) return 0;
  return Math.max(1, Math.min(24 * 60, minutes)) * 60_000;
}
