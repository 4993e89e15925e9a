/**
 * What the forecast tells the UI, as data: days, amounts and typed reasons, never sentences (the UI words them).
 * Amounts are integers of 1/10,000 of the currency unit (`AMOUNT_SCALE`): divide by it only to display.
 */

import { type AmountProblem } from '../api/models';
import { type ServerText } from '../util/serverText';

/** 1/10,000 of the currency unit, an integer. */
export type Units = number;

export type RenewalSource =
  | { readonly kind: 'order'; readonly orderId: string; readonly label: ServerText }
  | { readonly kind: 'invoice'; readonly invoiceId: string; readonly number?: ServerText; readonly url?: string };

/**
 * - `charge`: taken from the balance (an order that renews, or says nothing about renewing; an unpaid invoice);
 * - `expires`: the order does not renew and ends that day: listed, never charged;
 * - `unpriced`: it renews, but its price could not be read: listed, not summed;
 * - `otherCurrency`: priced in another currency than the balance: listed, not summed.
 */
export type RenewalKind = 'charge' | 'expires' | 'unpriced' | 'otherCurrency';

/**
 * One renewal in the forecast. The forecast's own are lean objects that read the fields shared by an order's renewals
 * through getters: read their fields (or `JSON.stringify` them), never spread them.
 */
export interface ForecastRenewal {
  readonly source: RenewalSource;
  /** The user's calendar day, `YYYY-MM-DD`. */
  readonly day: string;
  /** Calendar days from today: 0 today, negative when past due. */
  readonly daysAway: number;
  /** The moment, when the server gave one rather than a day. */
  readonly at?: number;
  readonly kind: RenewalKind;
  readonly amount?: Units;
  readonly currency?: string;
  /** The order gave no currency: the balance's is assumed (billing panels price an account in one currency). */
  readonly currencyAssumed?: true;
  /** Why the price was not read. */
  readonly priceProblem?: AmountProblem;
  /** Copied from the order; undefined: the server did not say, and it is counted as renewing. */
  readonly autoRenew?: boolean;
  /** Computed from the cycle (a later renewal), not a date the server sent. */
  readonly projected: boolean;
  /** Due before today. */
  readonly overdue: boolean;
  /** The balance after every charge up to and including this one (charges only, when a balance was read). */
  readonly balanceAfter?: Units;
  /** Charges only, when a balance was read: whether the balance pays this and every charge before it. */
  readonly covered?: boolean;
  /** When not covered: what must be added to the balance to pay this and every charge before it. */
  readonly shortBy?: Units;
  /** The unpaid invoice the server already issued for this renewal (same day, same amount). */
  readonly invoice?: { readonly invoiceId: string; readonly url?: string };
}

export interface UnpaidInvoice {
  readonly invoiceId: string;
  readonly number?: ServerText;
  /** Due day, when the invoice has one that reads as a day. */
  readonly day?: string;
  readonly amount?: Units;
  readonly currency?: string;
  /** The invoice's own web page (http or https only: the invoice reader keeps nothing else). */
  readonly url?: string;
  readonly overdue: boolean;
  /** The order whose renewal this invoice bills (then it is counted once, on the order's renewal). */
  readonly orderId?: string;
}

/**
 * - `noBalance`: no balance was read, nothing to compare with;
 * - `nothingDue`: no charge in the forecast's days;
 * - `covered`: the balance pays every charge up to `horizonEnd` (the last on `through`), with `left` to spare;
 * - `short`: the balance runs out at `first`, short by `shortBy`; before it `coveredCount` charges are paid.
 */
export type Coverage =
  | { readonly kind: 'noBalance' }
  | { readonly kind: 'nothingDue' }
  | {
      readonly kind: 'covered';
      readonly through: string;
      readonly count: number;
      readonly amount: Units;
      readonly left: Units;
    }
  | {
      readonly kind: 'short';
      readonly first: ForecastRenewal;
      readonly shortBy: Units;
      readonly coveredCount: number;
      readonly coveredAmount: Units;
      /** The day of the last charge the balance pays, when there is one. */
      readonly coveredThrough?: string;
    };

/**
 * Why an order with renewal fields has nothing in the forecast: its date could not be read, there was none, it lies
 * so far in the past that the panel has stopped renewing it (a cancelled service keeps its last due date), it never
 * renews (paid once, free), or the server's status word says the order has ended (terminated, cancelled).
 */
export type NoForecast = 'dateUnreadable' | 'noDate' | 'stale' | 'oneTime' | 'free' | 'ended';

export interface OrderOutlook {
  readonly orderId: string;
  /** The next renewal day the server gave or the cycle gives, even past the forecast's last day. */
  readonly nextDay?: string;
  /** Its first renewal within the forecast. */
  readonly next?: ForecastRenewal;
  /** Its first charge the balance does not pay, within the forecast. */
  readonly firstUncovered?: ForecastRenewal;
  /** A charge within the warning window that the balance does not pay: the tree's warning and the view badge. */
  readonly warn: boolean;
  readonly noForecast?: NoForecast;
}

export interface ForecastTotals {
  /** Charges summed, and their sum. */
  readonly charges: number;
  readonly amount: Units;
  /** Renewals listed but not summed: other currencies, unknown prices. */
  readonly notSummed: number;
  readonly otherCurrencies: readonly string[];
  /** Orders that end without renewing within the forecast. */
  readonly expiring: number;
}

export interface Forecast {
  /** The user's day at `now`, and the last day the forecast covers in full. */
  readonly today: string;
  readonly horizonEnd: string;
  /** Set when a bound ended the forecast before the days asked for (hostile amounts of renewals or money). */
  readonly cut?: 'renewalLimit' | 'amountLimit';
  /** The balance read (negative: owed), when one was. */
  readonly balance?: Units;
  /** The currency sums are in: the balance's, or the one every price shares when the balance gave none. */
  readonly currency?: string;
  readonly currencyAssumed?: true;
  /** In date order (orders in their list order within a day). */
  readonly renewals: readonly ForecastRenewal[];
  readonly totals: ForecastTotals;
  readonly coverage: Coverage;
  /** The first charge the balance does not pay: the day it runs out. */
  readonly runsOut?: ForecastRenewal;
  readonly unpaidInvoices: readonly UnpaidInvoice[];
  /** Every order that has renewal fields, by id. */
  readonly orders: ReadonlyMap<string, OrderOutlook>;
}
