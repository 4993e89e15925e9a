// `ServerText` is shown only through notify/inert.ts; ids stay exact (they go back to the server).

import { type HostProblem } from '../util/hostCheck';
import { type ServerText } from '../util/serverText';

export const ORDER_ACTIONS = ['start', 'stop', 'restart', 'reinstall'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export type OrderState = 'running' | 'stopped' | 'busy' | 'suspended' | 'unknown';

export type RawObject = Readonly<Record<string, unknown>>;

export interface Order {
  readonly id: string;
  readonly label: ServerText;
  readonly state: OrderState;
  readonly statusText?: ServerText;
  /** The main public one. */
  readonly address?: string;
  readonly addresses?: readonly string[];
  /** Values the host rule refuses (`-oProxyCommand=…`), with its reason. */
  readonly refusedAddresses?: readonly RefusedAddress[];
  readonly plan?: ServerText;
  readonly renewal?: OrderRenewal;
  readonly raw: RawObject;
  /** Set by the store when other entries carry the same id: none of them is acted on. */
  readonly duplicateId?: { readonly index: number; readonly count: number };
  readonly detailsMissing?: 'failed' | 'notYet';
}

export interface RefusedAddress {
  readonly value: ServerText;
  readonly problem: HostProblem;
}

export type RenewalDate =
  { readonly kind: 'day'; readonly day: string } | { readonly kind: 'instant'; readonly at: number };

export type CycleUnit = 'hour' | 'day' | 'week' | 'month' | 'year';

export type RenewalCycle =
  | { readonly kind: 'every'; readonly unit: CycleUnit; readonly count: number }
  | { readonly kind: 'once' }
  | { readonly kind: 'free' };

export type AmountProblem = 'notAmount' | 'ambiguous' | 'tooLarge' | 'negative';

export interface OrderRenewal {
  readonly date?: RenewalDate;
  /** In units (see the glossary), never negative. */
  readonly price?: number;
  readonly currency?: string;
  readonly cycle?: RenewalCycle;
  readonly cycleText?: ServerText;
  readonly autoRenew?: boolean;
  readonly priceProblem?: AmountProblem;
  readonly dateUnreadable?: true;
}

export interface Balance {
  readonly amount: number;
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
  readonly statusText?: ServerText;
  readonly status: InvoiceStatus;
  /** Only http(s): the UI opens it in a browser. */
  readonly url?: string;
  readonly raw: RawObject;
}

export interface Listing<T> {
  readonly items: readonly T[];
  readonly total?: number;
  /** The bound that stopped the reading (`cycle`: a next page seen before). */
  readonly stoppedBy?: 'pageLimit' | 'sizeLimit' | 'outsideApi' | 'cycle' | 'countLimit';
  readonly ids?: readonly string[];
}

export interface ActionResult {
  readonly order?: Order;
  readonly message?: ServerText;
}
