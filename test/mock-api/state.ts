import { createSeed, generateOrder } from './data';
import {
  type AccountRecord,
  type BalanceRecord,
  type InvoiceRecord,
  type MockSeed,
  type MockState,
  type OrderAction,
  type OrderRecord,
  type OrderStatus,
} from './types';

export const ORDER_ACTIONS: readonly OrderAction[] = ['start', 'stop', 'restart', 'reinstall'];

interface ActionRule {
  from: readonly OrderStatus[];
  via: OrderStatus;
  to: OrderStatus;
  verb: string;
}

const ACTION_RULES: Record<OrderAction, ActionRule> = {
  start: { from: ['stopped'], via: 'starting', to: 'running', verb: 'Starting' },
  stop: { from: ['running'], via: 'stopping', to: 'stopped', verb: 'Stopping' },
  restart: { from: ['running'], via: 'restarting', to: 'running', verb: 'Restarting' },
  reinstall: { from: ['running', 'stopped'], via: 'reinstalling', to: 'running', verb: 'Reinstalling' },
};

const TRANSITIONAL: ReadonlySet<OrderStatus> = new Set(['starting', 'stopping', 'restarting', 'reinstalling']);

export function isOrderAction(value: string): value is OrderAction {
  return (ORDER_ACTIONS as readonly string[]).includes(value);
}

export type ActionOutcome =
  | { ok: true; order: OrderRecord; message: string }
  | { ok: false; error: 'order_suspended' | 'action_in_progress' | 'invalid_state'; message: string };

export class LiveState implements MockState {
  orders: OrderRecord[] = [];
  balance!: BalanceRecord;
  account!: AccountRecord;
  invoices: InvoiceRecord[] = [];
  private readonly pending = new Map<OrderRecord, NodeJS.Timeout>();

  constructor(
    private seed: MockSeed,
    private readonly transitionMs: () => number,
  ) {
    this.reset();
  }

  getOrder(id: string | number): OrderRecord | undefined {
    const wanted = String(id);
    return this.orders.find((o) => String(o.id) === wanted);
  }

  setOrderStatus(id: string | number, status: OrderStatus): OrderRecord {
    const found = this.getOrder(id);
    if (!found) throw new Error(`Mock API: no order with id ${String(id)}`);
    this.cancel(found);
    found.status = status;
    return found;
  }

  reset(seed?: MockSeed): void {
    if (seed) this.seed = seed;
    this.dispose();
    const fresh = createSeed(this.seed);
    this.orders = fresh.orders;
    this.balance = fresh.balance;
    this.account = fresh.account;
    this.invoices = fresh.invoices;
  }

  addOrders(n: number): OrderRecord[] {
    let next = this.orders.reduce((max, o) => (typeof o.id === 'number' && o.id > max ? o.id : max), 1000) + 1;
    const added: OrderRecord[] = [];
    for (let i = 0; i < n; i++) added.push(generateOrder(next++, i));
    this.orders.push(...added);
    return added;
  }

  /** Applies an action if the order's state allows it; the transitional state ends after transitionMs. */
  applyAction(order: OrderRecord, action: OrderAction): ActionOutcome {
    const { status } = order;
    const rule = ACTION_RULES[action];
    if (status === 'suspended') {
      return { ok: false, error: 'order_suspended', message: `Order ${String(order.id)} is suspended` };
    }
    if (TRANSITIONAL.has(status)) {
      return {
        ok: false,
        error: 'action_in_progress',
        message: `Order ${String(order.id)} is ${status}; wait until it finishes before you ${action} it`,
      };
    }
    if (!rule.from.includes(status)) {
      const message = `Order ${String(order.id)} is ${status}; cannot ${action} it`;
      return { ok: false, error: 'invalid_state', message };
    }
    order.status = rule.via;
    this.schedule(order, rule.via, rule.to);
    return { ok: true, order, message: `${rule.verb} ${order.name}` };
  }

  /** Cancels every pending transition so no timer outlives the server. */
  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private schedule(order: OrderRecord, via: OrderStatus, to: OrderStatus): void {
    this.cancel(order);
    const timer = setTimeout(() => {
      this.pending.delete(order);
      if (order.status === via) order.status = to;
    }, this.transitionMs());
    timer.unref();
    this.pending.set(order, timer);
  }

  private cancel(order: OrderRecord): void {
    const timer = this.pending.get(order);
    if (timer !== undefined) clearTimeout(timer);
    this.pending.delete(order);
  }
}
