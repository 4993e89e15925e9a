/** State → icon, colour and contextValue, in one pure place that the menus, the pickers and the tests share. */
import { type OrderAction, type OrderState } from '../../api/models';

export type OrderStateContextValue = `order.${'running' | 'stopped' | 'busy' | 'suspended' | 'unknown'}`;
/** `.address` marks an order the server gave an address: the SSH items show only there. */
export type OrderContextValue = OrderStateContextValue | `${OrderStateContextValue}.address`;

// Spelled out rather than computed: a literal that only tests read costs the activation bundle nothing.
export const ORDER_CONTEXT_VALUES: readonly OrderContextValue[] = [
  'order.running', 'order.stopped', 'order.busy', 'order.suspended', 'order.unknown',
  'order.running.address', 'order.stopped.address', 'order.busy.address', 'order.suspended.address', 'order.unknown.address',
];

export function withAddress(value: OrderStateContextValue, order: { readonly address?: string }): OrderContextValue {
  return order.address ? `${value}.address` : value;
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

export interface Field {
  readonly key: string;
  /** A one-line rendering for scalars; undefined for objects and arrays, which have `children`. */
  readonly value?: string;
  readonly children?: readonly Field[];
}

/** Every field the server sent, nested objects and arrays included, in the server's order. */
export function fieldsOf(value: unknown, depth = 0): Field[] {
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [`[${index}]`, item])
    : typeof value === 'object' && value !== null ? Object.entries(value) : [];
  return entries.map(([key, item]) => {
    if (typeof item === 'object' && item !== null && depth < 6) {
      const children = fieldsOf(item, depth + 1);
      return children.length ? { key, children } : { key, value: Array.isArray(item) ? '[]' : '{}' };
    }
    return { key, value: scalarText(item) };
  });
}

export function scalarText(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

/** Markdown with every field, for tooltips; server text is escaped so it cannot inject links or markup. */
export function fieldsMarkdown(fields: readonly Field[], indent = ''): string {
  return fields.map((field) => {
    const line = `${indent}- **${escapeMarkdown(field.key)}**`;
    if (field.children) return `${line}\n${fieldsMarkdown(field.children, `${indent}  `)}`;
    return `${line}: ${escapeMarkdown(truncate(field.value ?? '', 200))}`;
  }).join('\n');
}

export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~$]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
