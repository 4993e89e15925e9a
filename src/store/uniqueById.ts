import { type Order } from '../api/models';

/** Two entries with the same id would give a tree duplicate ids, which VS Code rejects: keep the first. */
export function uniqueById<T extends { readonly id: string }>(items: readonly T[]): readonly T[] {
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(item.id) ? false : (seen.add(item.id), true)));
}

/**
 * Orders that share an id. The same entry sent twice (pages that overlap while the list changes) is one order, kept
 * once. Different entries with one id are all kept, each marked with its place among them (`duplicateId`), and the id
 * is ambiguous: a request for it may reach any of them, so nothing may act on it. Never repaired, never guessed.
 */
export function markDuplicates(orders: readonly Order[]): { list: readonly Order[]; ambiguous: ReadonlySet<string> } {
  const seen = new Set<string>();
  let repeated: Set<string> | undefined;
  for (const { id } of orders) {
    if (seen.has(id)) (repeated ??= new Set()).add(id);
    else seen.add(id);
  }
  if (!repeated) return { list: orders, ambiguous: new Set() };
  // Only entries whose id repeats are compared, each written out once: the work stays linear in the list.
  const kept: Order[] = [];
  const variants = new Map<string, Set<string>>();
  for (const order of orders) {
    if (!repeated.has(order.id)) {
      kept.push(order);
      continue;
    }
    const text = written(order);
    let texts = variants.get(order.id);
    if (!texts) variants.set(order.id, (texts = new Set()));
    if (text !== undefined && texts.has(text)) continue;
    if (text !== undefined) texts.add(text);
    kept.push(order);
  }
  const count = new Map<string, number>();
  for (const { id } of kept) if (repeated.has(id)) count.set(id, (count.get(id) ?? 0) + 1);
  const ambiguous = new Set<string>();
  for (const [id, n] of count) if (n > 1) ambiguous.add(id);
  const index = new Map<string, number>();
  const list = kept.map((order) => {
    if (!ambiguous.has(order.id)) return order;
    const at = index.get(order.id) ?? 0;
    index.set(order.id, at + 1);
    return { ...order, duplicateId: { index: at, count: count.get(order.id) ?? 0 } };
  });
  return { list, ambiguous };
}

/** What the server sent for the order, as text to compare; undefined when it cannot be written (never equal). */
function written(order: Order): string | undefined {
  try {
    return JSON.stringify(order.raw);
  } catch {
    return undefined;
  }
}
