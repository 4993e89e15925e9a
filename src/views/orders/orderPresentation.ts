/** State → icon, colour and contextValue, in one pure place that the menus, the pickers and the tests share. */
import { type OrderAction, type OrderState } from '../../api/models';

export type OrderStateContextValue = `order.${'running' | 'stopped' | 'busy' | 'suspended' | 'unknown'}`;
/** `.address` marks an order the server gave an address: the SSH items show only there. */
export type OrderContextValue = OrderStateContextValue | `${OrderStateContextValue}.address`;

// Spelled out rather than computed: a literal that only tests read costs the activation bundle nothing.
export const ORDER_CONTEXT_VALUES: readonly OrderContextValue[] = [
  'order.running',
  'order.stopped',
  'order.busy',
  'order.suspended',
  'order.unknown',
  'order.running.address',
  'order.stopped.address',
  'order.busy.address',
  'order.suspended.address',
  'order.unknown.address',
];

export function withAddress(value: OrderStateContextValue, order: { readonly address?: string }): OrderContextValue {
  return order.address ? `${value}.address` : value;
}

/** The user's marks follow: `.protected` and `.pinned` offer Unprotect and Unpin (menus match `^order\.<state>\b`). */
export function withMarks(
  value: OrderContextValue,
  mark: { readonly protected?: true; readonly pinned?: true },
): string {
  return `${value}${mark.protected ? '.protected' : ''}${mark.pinned ? '.pinned' : ''}`;
}

/** A group of servers: Start, Stop and Restart act on those in it that fit, as on a selection. */
export const ORDER_GROUP_CONTEXT_VALUE = 'orderGroup';

/** Every contextValue of the Orders view's rows but the account rows: each state with each of the marks, a group. */
export function orderItemContextValues(): string[] {
  const marks = [{}, { protected: true }, { pinned: true }, { protected: true, pinned: true }] as const;
  return [
    ...ORDER_CONTEXT_VALUES.flatMap((value) => marks.map((mark) => withMarks(value, mark))),
    ORDER_GROUP_CONTEXT_VALUE,
  ];
}

export interface OrderLook {
  readonly contextValue: OrderStateContextValue;
  /** A codicon id. */
  readonly icon: string;
  /** A theme colour id, when the state has one. */
  readonly color?: string;
}

/** An action in progress makes the order busy whatever the server last said: no second action can be offered. */
export function orderLook(state: OrderState, pending?: OrderAction): OrderLook {
  if (pending) return { contextValue: 'order.busy', icon: 'loading~spin' };
  switch (state) {
    case 'running':
      return { contextValue: 'order.running', icon: 'vm-running', color: 'debugIcon.startForeground' };
    case 'stopped':
      return { contextValue: 'order.stopped', icon: 'vm-outline', color: 'debugIcon.stopForeground' };
    case 'busy':
      return { contextValue: 'order.busy', icon: 'loading~spin' };
    case 'suspended':
      return { contextValue: 'order.suspended', icon: 'circle-slash', color: 'problemsWarningIcon.foreground' };
    case 'unknown':
      return { contextValue: 'order.unknown', icon: 'vm' };
  }
}

/**
 * The actions that fit a state. The `view/item/context` menus in package.json say the same in `when` clauses; a unit
 * test keeps the two in step.
 */
export function actionsFor(state: OrderState, pending?: OrderAction): readonly OrderAction[] {
  if (pending) return [];
  switch (state) {
    case 'running':
      return ['stop', 'restart', 'reinstall'];
    case 'stopped':
      return ['start', 'reinstall'];
    case 'unknown':
      return ['start', 'stop', 'restart', 'reinstall'];
    case 'busy':
    case 'suspended':
      return [];
  }
}
