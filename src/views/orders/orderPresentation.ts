// Pure: the menus, the pickers and the tests share it.
import { type OrderAction, type OrderState } from '../../api/models';

type OrderStateContextValue = `order.${'running' | 'stopped' | 'busy' | 'suspended' | 'unknown'}`;
// `.address`: the SSH items show only there.
type OrderContextValue = OrderStateContextValue | `${OrderStateContextValue}.address`;

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

// Menus match `^order\.<state>\b`, so the marks follow the state.
export function withMarks(
  value: OrderContextValue,
  mark: { readonly protected?: true; readonly pinned?: true },
): string {
  return `${value}${mark.protected ? '.protected' : ''}${mark.pinned ? '.pinned' : ''}`;
}

export const ORDER_GROUP_CONTEXT_VALUE = 'orderGroup';

export function orderItemContextValues(): string[] {
  const marks = [{}, { protected: true }, { pinned: true }, { protected: true, pinned: true }] as const;
  return [
    ...ORDER_CONTEXT_VALUES.flatMap((value) => marks.map((mark) => withMarks(value, mark))),
    ORDER_GROUP_CONTEXT_VALUE,
  ];
}

interface OrderLook {
  readonly contextValue: OrderStateContextValue;
  readonly icon: string;
  readonly color?: string;
}

const LOOKS: Readonly<Record<OrderState, OrderLook>> = {
  running: { contextValue: 'order.running', icon: 'vm-running', color: 'debugIcon.startForeground' },
  stopped: { contextValue: 'order.stopped', icon: 'vm-outline', color: 'debugIcon.stopForeground' },
  busy: { contextValue: 'order.busy', icon: 'loading~spin' },
  suspended: { contextValue: 'order.suspended', icon: 'circle-slash', color: 'problemsWarningIcon.foreground' },
  unknown: { contextValue: 'order.unknown', icon: 'vm' },
};

// An action in progress makes the order busy whatever the server last said: no second action can be offered.
export function orderLook(state: OrderState, pending?: OrderAction): OrderLook {
  return LOOKS[pending ? 'busy' : state];
}

// The menus' `when` clauses in package.json say the same: a unit test keeps the two in step.
const ACTIONS: Readonly<Record<OrderState, readonly OrderAction[]>> = {
  running: ['stop', 'restart', 'reinstall'],
  stopped: ['start', 'reinstall'],
  unknown: ['start', 'stop', 'restart', 'reinstall'],
  busy: [],
  suspended: [],
};

export function actionsFor(state: OrderState, pending?: OrderAction): readonly OrderAction[] {
  return pending ? [] : ACTIONS[state];
}
