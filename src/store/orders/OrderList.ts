import { type Order } from '../../api/models';
import { type OrdersChange } from '../types';
import { uniqueById } from '../uniqueById';

/** The orders in server order, indexed by id, with change detection that keeps unchanged orders untouched. */
export class OrderList {
  private list: readonly Order[] = [];
  private readonly byId = new Map<string, Order>();

  get all(): readonly Order[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  get(id: string): Order | undefined {
    return this.byId.get(id);
  }

  /** Replaces the list; returns what changed, or undefined when nothing did. */
  replace(orders: readonly Order[]): OrdersChange | undefined {
    const unique = uniqueById(orders);
    const sameIds = unique.length === this.list.length && unique.every((o, i) => o.id === this.list[i]?.id);
    const changed = sameIds ? unique.filter((o) => !sameOrder(o, this.byId.get(o.id))).map((o) => o.id) : undefined;
    this.list = unique;
    this.byId.clear();
    for (const order of unique) this.byId.set(order.id, order);
    if (!sameIds) return {};
    return changed?.length ? { ids: changed } : undefined;
  }

  /**
   * Updates one order in place when what the tree shows of it changed; returns whether it did. Unknown ids are
   * ignored: the list decides membership.
   */
  updateSummary(order: Order): boolean {
    const old = this.byId.get(order.id);
    if (!old || sameSummary(order, old)) return false;
    this.byId.set(order.id, order);
    this.list = this.list.map((o) => (o.id === order.id ? order : o));
    return true;
  }
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
