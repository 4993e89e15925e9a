/**
 * Domain types the views read. Produced by the normalisers from whatever JSON the server sent. Free text a server
 * sent is `ServerText`: it reaches the UI only through notify/inert.ts. Ids stay strings, exact (they go back to the
 * server), and are shown through the same boundary.
 */

import { type HostProblem } from '../util/hostCheck';
import { type ServerText } from '../util/serverText';

export type OrderAction = 'start' | 'stop' | 'restart' | 'reinstall';
export const ORDER_ACTIONS: readonly OrderAction[] = ['start', 'stop', 'restart', 'reinstall'];

/** The few states the UI distinguishes; the server's own wording is kept in `statusText`. */
export type OrderState = 'running' | 'stopped' | 'busy' | 'suspended' | 'unknown';

export type RawObject = Readonly<Record<string, unknown>>;

export interface Order {
  /** Always a string: servers send numbers or strings, and the id is only ever used as an opaque path segment. */
  readonly id: string;
  readonly label: ServerText;
  readonly state: OrderState;
  /** The server's own status word, e.g. "reinstalling" or "power_off". */
  readonly statusText?: ServerText;
  /** IP address or host name, when the server sent one. */
  readonly address?: string;
  /** Every address the server listed (IPv4 first, no repeats, at most sixteen); `address` is the main public one. */
  readonly addresses?: readonly string[];
  /**
   * Values the server sent as addresses that the host rule (util/hostCheck.ts) refuses, with its reason: an option
   * (`-oProxyCommand=…`), shell text, a legacy numeric form, the unspecified address… At most eight, each cut to 120
   * characters. None of them is in `addresses`; the UI can say which was refused and why.
   */
  readonly refusedAddresses?: readonly RefusedAddress[];
  readonly plan?: ServerText;
  /** What the server said about the next renewal, when it said anything (billing panels do; clouds do not). */
  readonly renewal?: OrderRenewal;
  readonly raw: RawObject;
  /**
   * Set (by the store's list) when other entries of the list carry the same id: none of them can be acted on or
   * looked up by id, since a request for that id reaches whichever the server picks. `index` is this entry's place
   * among them (0-based, in list order) and `count` how many there are, so each can still be shown apart.
   */
  readonly duplicateId?: DuplicateId;
  /** Set (by the store) on an order the list gave only the id of, shown without details: why they are missing. */
  readonly detailsMissing?: 'failed' | 'notYet';
}

export interface RefusedAddress {
  readonly value: ServerText;
  readonly problem: HostProblem;
}

export interface DuplicateId {
  readonly index: number;
  readonly count: number;
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

/** Why an amount was not read: "1,234" is a thousand or one and a quarter. */
export type AmountProblem = 'notAmount' | 'ambiguous' | 'tooLarge' | 'negative';

export interface OrderRenewal {
  readonly date?: RenewalDate;
  /** One renewal's price in 1/10,000 of the currency unit (an integer, never negative). */
  readonly price?: number;
  readonly currency?: string;
  readonly cycle?: RenewalCycle;
  /** The server's own cycle word ("Semi-Annually"), at most 40 characters. */
  readonly cycleText?: ServerText;
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
  readonly id?: ServerText;
  readonly name?: ServerText;
  readonly email?: ServerText;
  readonly raw: RawObject;
}

export type InvoiceStatus = 'paid' | 'unpaid' | 'overdue' | 'cancelled' | 'unknown';

export interface Invoice {
  readonly id: string;
  readonly number?: ServerText;
  readonly date?: ServerText;
  readonly dueDate?: ServerText;
  readonly amount?: number;
  readonly currency?: string;
  /** The server's own status word. */
  readonly statusText?: ServerText;
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
  /**
   * Why not all of the list was read, when a bound stopped it: too many pages, too many bytes, a next page outside
   * the API or seen before, or (`countLimit`) more entries than are read of one list over all its pages.
   */
  readonly stoppedBy?: 'pageLimit' | 'sizeLimit' | 'outsideApi' | 'cycle' | 'countLimit';
  /** Entries that were bare ids (`["ns3001234.ip-203-0-113.eu", …]`), in list order: their details are elsewhere. */
  readonly ids?: readonly string[];
}

export interface ActionResult {
  /** The order as the server described it after accepting the action, when it did. */
  readonly order?: Order;
  readonly message?: ServerText;
}
