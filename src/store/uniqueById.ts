import { type Order } from '../api/models';

/** Two entries with the same id would give a tree duplicate ids, which VS Code rejects: keep the first. */
export function uniqueById<T extends { readonly id: string }>(items: readonly T[]): readonly T[] {
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(item.id) ? false : (seen.add(item.id), true)));
}

// The same entry twice (overlapping pages) is kept once. Different entries with one id are all kept, marked
// `duplicateId`: a request for that id may reach any of them, so nothing may act on it.
export function markDuplicates(orders: readonly Order[]): { list: readonly Order[]; ambiguous: ReadonlySet<string> } {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const { id } of orders) (seen.has(id) ? repeated : seen).add(id);
  if (!repeated.size) return { list: orders, ambiguous: repeated };
  // JSON has no raw NUL, so text and id cannot run into each other.
  const texts = new Set<string>();
  const count = new Map<string, number>();
  const kept = orders.filter((order) => {
    if (!repeated.has(order.id)) return true;
    const text = written(order);
    if (text !== undefined) {
      if (texts.has(`${text}\0${order.id}`)) return false;
      texts.add(`${text}\0${order.id}`);
    }
    count.set(order.id, (count.get(order.id) ?? 0) + 1);
    return true;
  });
  const ambiguous = new Set([...count].filter(([, n]) => n > 1).map(([id]) => id));
  const index = new Map<string, number>();
  const list = kept.map((order) => {
    if (!ambiguous.has(order.id)) return order;
    const at = index.get(order.id) ?? 0;
    index.set(order.id, at + 1);
    return { ...order, duplicateId: { index: at, count: count.get(order.id) ?? 0 } };
  });
  return { list, ambiguous };
}

function written(order: Order): string | undefined {
  try {
    return JSON.stringify(order.raw);
  } catch {
    return undefined;
  }
}
