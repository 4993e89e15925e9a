import { type Order } from '../../api/models';
import { type OrdersChange } from '../types';
import { markDuplicates } from '../uniqueById';

/** An id several orders carry: all listed, none handed out by id. */
export class OrderList {
  private list: readonly Order[] = [];
  private readonly byId = new Map<string, Order>();
  private ambiguous: ReadonlySet<string> = new Set();

  get all(): readonly Order[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  get ambiguousIds(): readonly string[] {
    return [...this.ambiguous];
  }

  get(id: string): Order | undefined {
    return this.byId.get(id);
  }

  isAmbiguous(id: string): boolean {
    return this.ambiguous.has(id);
  }

  replace(orders: readonly Order[]): OrdersChange | undefined {
    const { list: next, ambiguous } = markDuplicates(orders);
    const old = new Map(this.list.map((o) => [entryKey(o), o]));
    const sameEntries = next.length === this.list.length && next.every((o, i) => sameEntry(o, this.list[i]));
    const changed = sameEntries ? next.filter((o) => !sameOrder(o, old.get(entryKey(o)))).map((o) => o.id) : undefined;
    this.list = next;
    this.ambiguous = ambiguous;
    this.byId.clear();
    for (const order of next) if (!order.duplicateId) this.byId.set(order.id, order);
    if (!sameEntries) return {};
    return changed?.length ? { ids: [...new Set(changed)] } : undefined;
  }

  /** The list decides membership. */
  updateSummary(order: Order): boolean {
    const old = this.byId.get(order.id);
    if (!old || sameSummary(order, old)) return false;
    this.byId.set(order.id, order);
    this.list = this.list.map((o) => (o === old ? order : o));
    return true;
  }
}

function entryKey(order: Order): string {
  return order.duplicateId ? `${order.id}\u0000${order.duplicateId.index}` : order.id;
}

function sameEntry(a: Order, b: Order | undefined): boolean {
  return b !== undefined && entryKey(a) === entryKey(b) && a.duplicateId?.count === b.duplicateId?.count;
}

function sameSummary(a: Order, b: Order): boolean {
  return (
    a.label === b.label &&
    a.state === b.state &&
    a.statusText === b.statusText &&
    a.address === b.address &&
    a.plan === b.plan
  );
}

function sameOrder(a: Order, b: Order | undefined): boolean {
  if (!b || !sameSummary(a, b)) return false;
  const keys = Object.keys(a.raw);
  if (keys.length !== Object.keys(b.raw).length) return false;
  return keys.every((key) => {
    const x = a.raw[key];
    const y = b.raw[key];
    return x === y || (typeof x === 'object' && typeof y === 'object' && JSON.stringify(x) === JSON.stringify(y));
  });
}
