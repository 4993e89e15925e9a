/**
 * Tells the changes of orders that no action of this window explains: an order that stopped, was suspended or runs
 * again, and orders that disappeared or appeared. Pure (no `vscode`), fed the store after every change of its list.
 */
import { type Order, type OrderState } from '../api/models';
import { type ServerText } from '../util/serverText';
import { type PendingAction, type ListCoverage, type Slot } from './types';

export type OutsideChangeKind = 'stopped' | 'suspended' | 'running' | 'disappeared' | 'appeared';

export interface OutsideChange {
  readonly kind: OutsideChangeKind;
  readonly id: string;
  readonly label: ServerText;
}

/** What the detector reads of the store: its public surface only. */
export interface WatchedOrders {
  readonly orders: { readonly all: readonly Order[] };
  readonly ordersInfo: Slot<unknown>;
  pending(id: string): PendingAction | undefined;
  listCoverage(kind: 'orders'): ListCoverage | undefined;
}

/** The states a change is told about; busy and unknown are passing or unreadable, never news on their own. */
type SettledState = 'running' | 'stopped' | 'suspended';

/** An answer this size or larger is not a list anyone reads: tell the count, not every name. */
export const MAX_TOLD = 50;

/**
 * A change this soon after the order's own action ended is that action's outcome. The store ends an action (clearing
 * it as pending) before it announces the list that shows its result, so "pending right now" alone would call the
 * user's own stop an outside one.
 */
export const OWN_ACTION_GRACE_MS = 30_000;

export class OutsideChangeDetector {
  /** The last settled state of each order, once the first list is known; undefined before (nothing is news yet). */
  private known?: Map<string, { label: ServerText; state?: SettledState }>;

  /** When each order was last seen with an action of this window under way. */
  private readonly lastOwn = new Map<string, number>();

  constructor(
    private readonly store: WatchedOrders,
    private readonly now: () => number,
  ) {}

  /** Whether an action of this window is under way for the order, or ended within the grace period. */
  private ours(id: string, now: number): boolean {
    if (this.store.pending(id) !== undefined) {
      this.lastOwn.set(id, now);
      return true;
    }
    const last = this.lastOwn.get(id);
    if (last === undefined) return false;
    if (now - last <= OWN_ACTION_GRACE_MS) return true;
    this.lastOwn.delete(id);
    return false;
  }

  /** Compares the store's list with the last one; returns what changed outside this window, in list order. */
  check(): OutsideChange[] {
    const { store } = this;
    // Signed out, another key or server, or not loaded yet: start over without telling anything.
    if (store.ordersInfo.updatedAt === undefined) {
      this.known = undefined;
      this.lastOwn.clear();
      return [];
    }
    const now = this.now();
    const list = store.orders.all;
    if (!this.known) {
      this.known = new Map(
        list.map((order) => {
          this.ours(order.id, now);
          return [order.id, { label: order.label, state: settled(order.state) }];
        }),
      );
      return [];
    }
    const known = this.known;
    const changes: OutsideChange[] = [];
    const seen = new Set<string>();
    for (const order of list) {
      seen.add(order.id);
      const before = known.get(order.id);
      const state = settled(order.state);
      const ours = this.ours(order.id, now);
      if (!before) {
        known.set(order.id, { label: order.label, state });
        if (!ours) changes.push({ kind: 'appeared', id: order.id, label: order.label });
        continue;
      }
      before.label = order.label;
      if (!state || state === before.state) continue;
      const hadState = before.state !== undefined;
      before.state = state;
      // The first settled state of an order that was busy when first seen is not a change anyone made now.
      if (!ours && hadState) changes.push({ kind: state, id: order.id, label: order.label });
    }
    // A list cut short (a page bound, a size bound) does not prove the rest is gone: only a whole list does.
    const whole = store.listCoverage('orders') === undefined;
    for (const [id, before] of known) {
      if (seen.has(id)) continue;
      if (!whole) continue;
      known.delete(id);
      if (!this.ours(id, now)) changes.push({ kind: 'disappeared', id, label: before.label });
      this.lastOwn.delete(id);
    }
    return changes;
  }
}

function settled(state: OrderState): SettledState | undefined {
  return state === 'running' || state === 'stopped' || state === 'suspended' ? state : undefined;
}
