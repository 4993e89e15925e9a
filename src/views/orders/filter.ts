/** Filter and sort of the Orders view: pure, so 10,000 orders can be arranged in a benchmark and a unit test. */
import { type Order, type OrderAction, type OrderState } from '../../api/models';
import { plain } from '../../util/serverText';

export const ORDER_FILTERS = ['all', 'running', 'stopped', 'busy', 'other'] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];
export const ORDER_SORTS = ['server', 'name', 'state'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

export interface Arrangement {
  readonly filter: OrderFilter;
  readonly sort: OrderSort;
}

export const DEFAULT_ARRANGEMENT: Arrangement = { filter: 'all', sort: 'server' };

export type StateGroup = Exclude<OrderFilter, 'all'>;

/** An order with an action under way counts as busy, as the tree shows it. Suspended and unknown are "other". */
export function stateGroup(state: OrderState, pending?: OrderAction): StateGroup {
  if (pending || state === 'busy') return 'busy';
  if (state === 'running' || state === 'stopped') return state;
  return 'other';
}

const STATE_RANK: Readonly<Record<StateGroup, number>> = { running: 0, busy: 1, stopped: 2, other: 3 };

/** Names compare as people read them: "web-2" before "web-10", case ignored. */
/** Made on the first sort by name: building a collator loads locale data, a few ms activation need not pay. */
let collator: Intl.Collator | undefined;
function byName(): Intl.Collator {
  collator ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return collator;
}

export interface Arranged {
  readonly shown: readonly Order[];
  /** How many orders the whole list has, for "running: 3 of 12". */
  readonly total: number;
}

/**
 * The orders the view shows, in the order it shows them. Sorting is stable, so equal names or states keep the
 * server's order, and the server's own order is never lost.
 */
export function arrangeOrders(
  orders: readonly Order[],
  arrangement: Arrangement,
  pending: (id: string) => OrderAction | undefined,
): Arranged {
  const { filter, sort } = arrangement;
  const needsGroup = filter !== 'all' || sort === 'state';
  let shown: Order[] = [];
  let groups: StateGroup[] = [];
  if (needsGroup) {
    for (const order of orders) {
      const group = stateGroup(order.state, pending(order.id));
      if (filter !== 'all' && group !== filter) continue;
      shown.push(order);
      groups.push(group);
    }
  } else {
    shown = [...orders];
  }
  if (sort === 'name') {
    shown = shown
      .map((order, index) => ({ order, index }))
      .sort((a, b) => byName().compare(plain(a.order.label), plain(b.order.label)) || a.index - b.index)
      .map((entry) => entry.order);
  } else if (sort === 'state') {
    const ranked = shown.map((order, index) => ({ order, index, rank: STATE_RANK[groups[index] ?? 'other'] }));
    ranked.sort((a, b) => a.rank - b.rank || a.index - b.index);
    shown = ranked.map((entry) => entry.order);
    groups = [];
  }
  return { shown, total: orders.length };
}

/** Reads a remembered arrangement back, trusting nothing about what was stored. */
export function parseArrangement(value: unknown): Arrangement {
  const stored = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const filter = ORDER_FILTERS.find((f) => f === stored.filter) ?? DEFAULT_ARRANGEMENT.filter;
  const sort = ORDER_SORTS.find((s) => s === stored.sort) ?? DEFAULT_ARRANGEMENT.sort;
  return { filter, sort };
}
