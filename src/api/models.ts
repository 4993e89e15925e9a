/** Domain types the views read. Produced by the normalisers from whatever JSON the server sent. */

export type OrderAction = 'start' | 'stop' | 'restart' | 'reinstall';
export const ORDER_ACTIONS: readonly OrderAction[] = ['start', 'stop', 'restart', 'reinstall'];

/** The few states the UI distinguishes; the server's own wording is kept in `statusText`. */
export type OrderState = 'running' | 'stopped' | 'busy' | 'suspended' | 'unknown';

export type RawObject = Readonly<Record<string, unknown>>;

export interface Order {
  /** Always a string: servers send numbers or strings, and the id is only ever used as an opaque path segment. */
  readonly id: string;
  readonly label: string;
  readonly state: OrderState;
  /** The server's own status word, e.g. "reinstalling" or "power_off". */
  readonly statusText?: string;
  /** IP address or host name, when the server sent one. */
  readonly address?: string;
  /** Every address the server listed (IPv4 first, no repeats, at most sixteen); `address` is the main public one. */
  readonly addresses?: readonly string[];
  readonly plan?: string;
  /** What the server said about the next renewal, when it said anything (billing panels do; clouds do not). */
  readonly renewal?: OrderRenewal;
  readonly raw: RawObject;
}

/** A calendar day in the user's zone (the server sent a date without a time), or an instant. */
export type RenewalDate =
  { readonly kind: 'day'; readonly day: string } | { readonly kind: 'instant'; readonly at: number };

export type CycleUnit = 'hour' | 'day' | 'week' | 'month' | 'year';

/** How often an order renews. Paid once and free orders never charge again. */
export type RenewalCycle =
  | { readonly kind: 'every'; readonly unit: CycleUnit; readonly count: number }
  | { readonly kind: 'once' }
  | { readonly kind: 'free' };

/** Why an amount was not read: "1,234" is a thousand or one, "0.00001" is finer than a ten-thousandth. */
export type AmountProblem = 'notAmount' | 'ambiguous' | 'tooPrecise' | 'tooLarge' | 'negative';

export interface OrderRenewal {
  readonly date?: RenewalDate;
  /** One renewal's price in 1/10,000 of the currency unit (an integer, never negative). */
  readonly price?: number;
  readonly currency?: string;
  readonly cycle?: RenewalCycle;
  /** The server's own cycle word ("Semi-Annually"), at most 40 characters. */
  readonly cycleText?: string;
  /** Whether it renews on its own; undefined when the server did not say. */
  readonly autoRenew?: boolean;
  /** A price field was there and could not be read. */
  readonly priceProblem?: AmountProblem;
  /** A date field was there and could not be read. */
  readonly dateUnreadable?: true;
}

export interface Balance {
  readonly amount: number;
  /** ISO 4217 code when the server sent one. */
  readonly currency?: string;
  readonly raw: RawObject | number | string;
}

export interface Account {
  readonly id?: string;
  readonly name?: string;
  readonly email?: string;
  readonly raw: RawObject;
}

export type InvoiceStatus = 'paid' | 'unpaid' | 'overdue' | 'cancelled' | 'unknown';

export interface Invoice {
  readonly id: string;
  readonly number?: string;
  readonly date?: string;
  readonly dueDate?: string;
  readonly amount?: number;
  readonly currency?: string;
  /** The server's own status word. */
  readonly statusText?: string;
  readonly status: InvoiceStatus;
  /** Only http(s) links are kept: the UI opens it in a browser. */
  readonly url?: string;
  readonly raw: RawObject;
}

/** One list read over all its pages. */
export interface Listing<T> {
  readonly items: readonly T[];
  /** The whole list's size, when the server said so: more than `items.length` means some were not read. */
  readonly total?: number;
  /** Why the pages were not all read, when a bound stopped the walk. */
  readonly stoppedBy?: 'pageLimit' | 'sizeLimit' | 'outsideApi' | 'cycle';
}

export interface ActionResult {
  /** The order as the server described it after accepting the action, when it did. */
  readonly order?: Order;
  readonly message?: string;
}
