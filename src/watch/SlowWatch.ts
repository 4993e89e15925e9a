import { type Clock } from '../api/clock';
import { type ConnectionState, type DataKind, type RefreshReason, type Slot } from '../store/types';
import { type Event } from '../util/Emitter';
import { Disposable, toDisposable } from '../util/lifecycle';

/** The part of the store the watch uses: its public methods and events. */
export interface WatchTarget {
  readonly state: ConnectionState;
  readonly ordersInfo: Slot<unknown>;
  readonly onDidChangeData: Event<DataKind>;
  readonly onDidChangeState: Event<ConnectionState>;
  refresh(kinds: readonly DataKind[], reason: RefreshReason): Promise<void>;
}

export interface WatchConditions {
  /** The Orders view refreshes itself while visible (RefreshScheduler); the watch covers the time it is hidden. */
  readonly ordersVisible: boolean;
  readonly focused: boolean;
}

/** After the window loses focus the watch goes on this long (the user may be reading a server's page), then rests. */
export const RECENT_FOCUS_MS = 15 * 60_000;

/**
 * Reads the order list every `watchInterval` minutes while the Orders view is hidden, so changes made outside this
 * window are still noticed; only while the window is focused or was focused recently. Its requests go through the
 * store, so they share the rate limiter and join a refresh already under way. One timer, set for the next read.
 */
export class SlowWatch extends Disposable {
  private intervalMs: number;
  private conditions: WatchConditions;
  private lastFocusAt: number;
  private timer: unknown;

  constructor(
    private readonly store: WatchTarget,
    private readonly clock: Clock,
    intervalMinutes: number,
    conditions: WatchConditions,
  ) {
    super();
    this.intervalMs = minutesToMs(intervalMinutes);
    this.conditions = conditions;
    this.lastFocusAt = clock.now();
    this.register(toDisposable(() => this.cancel()));
    this.register(store.onDidChangeData((kind) => kind === 'orders' && this.schedule()));
    this.register(store.onDidChangeState(() => this.schedule()));
    this.schedule();
  }

  setInterval(minutes: number): void {
    this.intervalMs = minutesToMs(minutes);
    this.schedule();
  }

  setConditions(change: Partial<WatchConditions>): void {
    if (this.conditions.focused && change.focused === false) this.lastFocusAt = this.clock.now();
    this.conditions = { ...this.conditions, ...change };
    if (this.conditions.focused) this.lastFocusAt = this.clock.now();
    this.schedule();
  }

  /** When the next read is due, or undefined while the watch rests. */
  dueAt(): number | undefined {
    const { state, ordersInfo } = this.store;
    if (this.intervalMs === 0 || this.conditions.ordersVisible) return undefined;
    if (state !== 'ready' && state !== 'unreachable') return undefined;
    const now = this.clock.now();
    if (!this.conditions.focused && now - this.lastFocusAt > RECENT_FOCUS_MS) return undefined;
    const since = ordersInfo.error ? ordersInfo.failedAt : ordersInfo.updatedAt;
    return (since ?? now) + this.intervalMs;
  }

  private schedule(): void {
    this.cancel();
    if (this.disposed || this.store.ordersInfo.loading) return;
    const due = this.dueAt();
    if (due === undefined) return;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        this.fire();
      },
      Math.max(1_000, due - this.clock.now()),
    );
  }

  private fire(): void {
    const due = this.dueAt();
    if (due !== undefined && due <= this.clock.now()) {
      // The answer moves updatedAt (or failedAt), which sets the next timer an interval later.
      void this.store.refresh(['orders'], 'background').finally(() => this.schedule());
      return;
    }
    this.schedule();
  }

  private cancel(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** 0 turns the watch off; anything else is at least a minute, so no setting can make it chatty. */
export function minutesToMs(minutes: number): number {
  if (!Number.isFinite(minutes) || minutes <= 0) return 0;
  return Math.max(1, Math.min(24 * 60, minutes)) * 60_000;
}
