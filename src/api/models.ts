/** Domain types the views read. Produced by the normalisers from whatever JSON the server sent. */

import { type HostProblem } from '../ssh/hostCheck';

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
  /**
   * Values the server sent as addresses that the host rule (ssh/hostCheck.ts) refuses, with its reason: an option
   * (`-oProxyCommand=…`), shell text, a legacy numeric form, the unspecified address… At most eight, each cut to 120
   * characters. None of them is in `addresses`; the UI can say which was refused and why.
   */
  readonly refusedAddresses?: readonly RefusedAddress[];
  readonly plan?: string;
  readonly raw: RawObject;
  /**
   * Set (by the store's list) when other entries of the list carry the same id: none of them can be acted on or
   * looked up by id, since a request for that id reaches whichever the server picks. `index` is this entry's place
   * among them (0-based, in list order) and `count` how many there are, so each can still be shown apart.
   */
  readonly duplicateId?: DuplicateId;
  /**
   * How many of the order's fields the server sent beyond what is read (json.ts keeps the first 500 of an object):
   * `raw` lacks them, so the details should say that this many were left out.
   */
  readonly omittedFields?: number;
}

export interface RefusedAddress {
  readonly value: string;
  readonly problem: HostProblem;
}

export interface DuplicateId {
  readonly index: number;
  readonly count: number;
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
  /**
   * Why not all of the list was read, when a bound stopped it: too many pages, too many bytes, a next page outside
   * the API or seen before, or (`countLimit`) more entries than are read of one list (json.ts, MAX_ARRAY_ITEMS).
   */
  readonly stoppedBy?: 'pageLimit' | 'sizeLimit' | 'outsideApi' | 'cycle' | 'countLimit';
}

export interface ActionResult {
  /** The order as the server described it after accepting the action, when it did. */
  readonly order?: Order;
  readonly message?: string;
}
