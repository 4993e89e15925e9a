import { type Order, type OrderState } from '../api/models';
import { plain, type ServerText } from '../util/serverText';
import { type PendingAction, type ListCoverage, type Slot } from './types';

export type OutsideChangeKind = 'stopped' | 'suspended' | 'running' | 'disappeared' | 'appeared' | 'edited';
export const EDITED_FIELDS = ['label', 'address', 'plan', 'renewal'] as const;
export type EditedField = (typeof EDITED_FIELDS)[number];

export interface OutsideChange {
  readonly kind: OutsideChangeKind;
  readonly id: string;
  readonly label: ServerText;
  /** Seen at `at`; `since` is the last read that showed the order as it was (settled). */
  readonly at: number;
  readonly since?: number;
  readonly field?: EditedField;
  readonly from?: string;
  readonly to?: string;
}

/** One object an order, its fields inline: a list may hold 10,000. `name` as shown; the fields as compared. */
interface Known extends Partial<Record<EditedField, string>> {
  name: ServerText;
  state?: SettledState;
  at?: number;
}

export interface WatchedOrders {
  readonly orders: { readonly all: readonly Order[]; get(id: string): Order | undefined };
  readonly ordersInfo: Slot<unknown>;
  pending(id: string): PendingAction | undefined;
  listCoverage(kind: 'orders'): ListCoverage | undefined;
}

/** Busy and unknown are passing or unreadable: never news on their own. */
type SettledState = 'running' | 'stopped' | 'suspended';

export const MAX_TOLD = 50;

// The store clears an action as pending before it announces the list that shows its result: a change this soon
// after is still that action's.
export const OWN_ACTION_GRACE_MS = 30_000;

export class OutsideChangeDetector {
  private known?: Map<string, Known>;
  private lastRead?: number;
  /** The read that lacked most of the known orders. */
  private doubted?: number;
  private readonly lastOwn = new Map<string, number>();

  constructor(
    private readonly store: WatchedOrders,
    private readonly now: () => number,
  ) {}

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

  check(): OutsideChange[] {
    const { store } = this;
    // Signed out, another key or server, not loaded yet: start over silently.
    if (store.ordersInfo.updatedAt === undefined) {
      this.known = undefined;
      this.lastOwn.clear();
      return [];
    }
    const now = this.now();
    const readAt = store.ordersInfo.askedAt ?? store.ordersInfo.updatedAt;
    const list = store.orders.all;
    const entry = (order: Order): Known => {
      const known: Known = {
        name: order.label,
        state: settled(order.state),
        at: readAt,
        label: undefined,
        address: undefined,
        plan: undefined,
        renewal: undefined,
      };
      edits(order, known);
      return known;
    };
    if (!this.known) {
      for (const order of list) this.ours(order.id, now);
      this.known = new Map(list.map((order) => [order.id, entry(order)]));
      this.lastRead = readAt;
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
      const base = { id: order.id, label: order.label, at: now, since: before?.at ?? this.lastRead };
      if (!before) {
        known.set(order.id, entry(order));
        if (!ours) changes.push({ kind: 'appeared', ...base });
        continue;
      }
      before.name = order.label;
      for (const edit of edits(order, before)) if (!ours) changes.push({ kind: 'edited', ...base, ...edit });
      // The last read that showed it settled: a busy one (an action under way) is no state it was seen in.
      if (state) before.at = readAt;
      if (!state || state === before.state) continue;
      const from = before.state;
      before.state = state;
      // The first settled state of an order that was busy when first seen is not a change anyone made now.
      if (!ours && from) changes.push({ kind: state, ...base, from, to: state });
    }
    this.lastRead = readAt;
    // A list cut short (a page bound, a size bound) does not prove the rest is gone: only a whole list does. One that
    // lacks most of the account (an empty answer in a glitch) is believed when the next read says so too.
    const missing = store.listCoverage('orders') === undefined ? [...known].filter(([id]) => !seen.has(id)) : [];
    const doubt = missing.length > known.size / 2 && (this.doubted ?? readAt) === readAt;
    this.doubted = doubt ? readAt : undefined;
    for (const [id, before] of doubt ? [] : missing) {
      known.delete(id);
      const gone = { kind: 'disappeared', id, label: before.name, at: now, since: before.at } as const;
      if (!this.ours(id, now)) changes.push(gone);
      this.lastOwn.delete(id);
    }
    return changes;
  }
}

export function stillSo(change: OutsideChange, store: WatchedOrders): boolean {
  if (store.ordersInfo.updatedAt === undefined) return false;
  const order = store.orders.get(change.id);
  if (change.kind === 'disappeared') return !order;
  if (!order || store.pending(change.id)) return false;
  return change.kind === 'appeared' || change.kind === 'edited' || order.state === change.kind;
}

/**
 * A field a read lacks is no change: the list and a single order's answer often carry different fields. An order shown
 * by its id alone, awaiting its details, has none of its own.
 */
function edits(order: Order, known: Known): Array<{ field: EditedField; from: string; to: string }> {
  if (order.detailsMissing) return [];
  const now: Record<EditedField, string | undefined> = {
    label: plain(order.label),
    address: order.address,
    plan: order.plan && plain(order.plan),
    renewal: renewalDay(order),
  };
  const found = [];
  for (const field of EDITED_FIELDS) {
    const [from, to] = [known[field], now[field]];
    if (!to || from === to) continue;
    known[field] = to;
    if (from) found.push({ field, from, to });
  }
  return found;
}

function renewalDay(order: Order): string | undefined {
  const date = order.renewal?.date;
  return date && (date.kind === 'day' ? date.day : new Date(date.at).toISOString().slice(0, 10));
}

function settled(state: OrderState): SettledState | undefined {
  return state === 'running' || state === 'stopped' || state === 'suspended' ? state : undefined;
}
