// Pure, so 10,000 orders can be arranged in a benchmark and a unit test.
import { type Order, type OrderAction, type OrderState, type RawObject } from '../../api/models';
import { plain } from '../../util/serverText';

export const ORDER_FILTERS = ['all', 'running', 'stopped', 'busy', 'other'] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];
export const ORDER_SORTS = ['server', 'name', 'state'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
export const ORDER_GROUPINGS = ['none', 'state', 'plan', 'location', 'renewal', 'label'] as const;
export type OrderGrouping = (typeof ORDER_GROUPINGS)[number];

export interface Arrangement {
  readonly filter: OrderFilter;
  readonly sort: OrderSort;
  readonly group: OrderGrouping;
}

const DEFAULT_ARRANGEMENT: Arrangement = { filter: 'all', sort: 'server', group: 'none' };

export type StateGroup = Exclude<OrderFilter, 'all'>;

export function stateGroup(state: OrderState, pending?: OrderAction): StateGroup {
  if (pending || state === 'busy') return 'busy';
  if (state === 'running' || state === 'stopped') return state;
  return 'other';
}

const STATE_RANK: Readonly<Record<StateGroup, number>> = { running: 0, busy: 1, stopped: 2, other: 3 };

// Made on the first sort by name: building a collator loads locale data, a few ms activation need not pay.
let collator: Intl.Collator | undefined;
function byName(): Intl.Collator {
  collator ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return collator;
}

interface Arranged {
  readonly shown: readonly Order[];
  readonly total: number;
}

// Sorting is stable: equal names or states keep the server's order.
export function arrangeOrders(
  orders: readonly Order[],
  arrangement: Pick<Arrangement, 'filter' | 'sort'>,
  pending: (id: string) => OrderAction | undefined,
): Arranged {
  const { filter, sort } = arrangement;
  const needsGroup = filter !== 'all' || sort === 'state';
  let shown: Order[] = [];
  const groups: StateGroup[] = [];
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
  }
  return { shown, total: orders.length };
}

export function parseArrangement(value: unknown): Arrangement {
  const stored = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const filter = ORDER_FILTERS.find((f) => f === stored.filter) ?? DEFAULT_ARRANGEMENT.filter;
  const sort = ORDER_SORTS.find((s) => s === stored.sort) ?? DEFAULT_ARRANGEMENT.sort;
  const group = ORDER_GROUPINGS.find((g) => g === stored.group) ?? DEFAULT_ARRANGEMENT.group;
  return { filter, sort, group };
}

export function groupKey(
  order: Order,
  by: OrderGrouping,
  pending: OrderAction | undefined,
  label: string | undefined,
): string {
  switch (by) {
    case 'state':
      return stateGroup(order.state, pending);
    case 'plan':
      return order.plan === undefined ? '' : plain(order.plan).trim();
    case 'location':
      return locationOf(order.raw);
    case 'renewal':
      return renewalMonth(order);
    case 'label':
      return label ?? '';
    case 'none':
      return '';
  }
}

// States by rank, months in time, other values by name; the orders without a value last.
export function groupOrders(
  orders: readonly Order[],
  by: OrderGrouping,
  keyOf: (order: Order) => string,
): Array<{ key: string; orders: Order[] }> {
  const groups = new Map<string, Order[]>();
  for (const order of orders) {
    const key = keyOf(order);
    const list = groups.get(key);
    if (list) list.push(order);
    else groups.set(key, [order]);
  }
  const rank = (key: string): number => STATE_RANK[key as StateGroup] ?? 0;
  const keys = [...groups.keys()].sort((a, b) => {
    if (!a || !b) return a ? -1 : b ? 1 : 0;
    if (by === 'state') return rank(a) - rank(b);
    return by === 'renewal' ? a.localeCompare(b) : byName().compare(a, b);
  });
  return keys.map((key) => ({ key, orders: groups.get(key) ?? [] }));
}

const LOCATION_FIELDS = ['location', 'region', 'datacenter', 'zone'];

function locationOf(raw: RawObject): string {
  for (const field of LOCATION_FIELDS) {
    const value = raw[field];
    if (typeof value === 'string' && value.trim()) return value.slice(0, 80).trim();
  }
  return '';
}

// "2026-03", in the user's time zone for an instant.
function renewalMonth(order: Order): string {
  const date = order.renewal?.date;
  if (date?.kind === 'day') return date.day.slice(0, 7);
  if (date?.kind !== 'instant' || !Number.isFinite(date.at)) return '';
  const at = new Date(date.at);
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}`;
}
