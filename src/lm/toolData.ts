import { type Balance, type Invoice, type Order, type OrderAction } from '../api/models';
import { forTool } from '../notify/inert';
import { plain, type ServerText } from '../util/serverText';
import { actionsFor } from '../views/orders/orderPresentation';
import { stateGroup } from '../views/orders/filter';

export const MAX_LISTED_ORDERS = 200;
export const MAX_LISTED_INVOICES = 50;
const MAX_TEXT = 120;

export const TOOL_ACTIONS = ['start', 'stop', 'restart'] as const satisfies readonly OrderAction[];
export type ToolAction = (typeof TOOL_ACTIONS)[number];

export interface ListedOrder {
  readonly id: string;
  readonly name: string;
  readonly state: string;
  readonly serverStatus?: string;
  readonly address?: string;
  readonly plan?: string;
  readonly actionUnderWay?: OrderAction;
}

export interface ToolAccount {
  readonly name: string;
  readonly host: string;
  readonly id: string;
}

export function listOrders(
  orders: readonly Order[],
  pending: (id: string) => OrderAction | undefined,
  state?: string,
): { total: number; matching: number; listed: number; orders: ListedOrder[] } {
  const wanted = typeof state === 'string' && state !== 'all' ? state : undefined;
  const matching = wanted
    ? orders.filter((o) => stateGroup(o.state, pending(o.id)) === wanted || o.state === wanted)
    : orders;
  return {
    total: orders.length,
    matching: matching.length,
    listed: Math.min(matching.length, MAX_LISTED_ORDERS),
    orders: matching.slice(0, MAX_LISTED_ORDERS).map((order) => {
      const underWay = pending(order.id);
      return {
        id: order.id,
        name: cut(order.label),
        state: order.state,
        ...(order.statusText ? { serverStatus: cut(order.statusText) } : {}),
        ...(order.address ? { address: cut(order.address) } : {}),
        ...(order.plan ? { plan: cut(order.plan) } : {}),
        ...(underWay ? { actionUnderWay: underWay } : {}),
      };
    }),
  };
}

export function accountSummary(
  balance: Balance | undefined,
  invoices: readonly Invoice[] | undefined,
  accountName: string | undefined,
): Record<string, unknown> {
  const unpaid = (invoices ?? []).filter((i) => i.status === 'unpaid' || i.status === 'overdue');
  return {
    ...(accountName ? { holder: cut(accountName) } : {}),
    balance: balance
      ? { amount: balance.amount, ...(balance.currency ? { currency: balance.currency } : {}) }
      : 'unknown',
    unpaidInvoices: invoices === undefined ? 'unknown' : unpaid.length,
    invoices: unpaid.slice(0, MAX_LISTED_INVOICES).map((i) => ({
      id: i.id,
      ...(i.number ? { number: cut(i.number) } : {}),
      status: i.status,
      ...(i.amount !== undefined ? { amount: i.amount } : {}),
      ...(i.currency ? { currency: i.currency } : {}),
      ...(i.dueDate ? { dueDate: cut(i.dueDate) } : {}),
    })),
  };
}

export interface ActionInput {
  readonly orderId: string;
  readonly action: ToolAction;
  readonly account?: string;
}

// Reinstall is refused by name, with a reason.
export function parseActionInput(input: unknown): ActionInput | { refused: string } {
  const { orderId, action, account } = (typeof input === 'object' && input !== null ? input : {}) as Record<
    string,
    unknown
  >;
  if (action === 'reinstall') return { refused: 'reinstall' };
  if (!TOOL_ACTIONS.some((a) => a === action)) return { refused: 'action' };
  if (
    (typeof orderId !== 'string' && typeof orderId !== 'number') ||
    String(orderId).length === 0 ||
    String(orderId).length > 200
  ) {
    return { refused: 'orderId' };
  }
  if (account !== undefined && (typeof account !== 'string' || account.length > 200)) return { refused: 'account' };
  return { orderId: String(orderId), action: action as ToolAction, ...(account ? { account } : {}) };
}

// By exact id, else by an exact name only one order has: never a guess.
export function findOrder(
  orders: readonly Order[],
  byId: (id: string) => Order | undefined,
  wanted: string,
): Order | undefined {
  const exact = byId(wanted);
  if (exact) return exact;
  const named = orders.filter((o) => plain(o.label) === wanted);
  return named.length === 1 ? named[0] : undefined;
}

export function fits(order: Order, action: ToolAction, pending: OrderAction | undefined): boolean {
  return actionsFor(order.state, pending).includes(action);
}

function cut(text: ServerText | string): string {
  return forTool(text, MAX_TEXT);
}
