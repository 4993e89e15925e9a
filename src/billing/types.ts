import { type AmountProblem } from '../api/models';
import { type ServerText } from '../util/serverText';

/** 1/10,000 of the currency unit, an integer: divide by `AMOUNT_SCALE` only to display. */
export type Units = number;

export type RenewalSource =
  | { readonly kind: 'order'; readonly orderId: string; readonly label: ServerText }
  | { readonly kind: 'invoice'; readonly invoiceId: string; readonly number?: ServerText; readonly url?: string };

/**
 * `charge`: taken from the balance; `expires`: the order does not renew and ends that day (never charged);
 * `unpriced` and `otherCurrency`: listed, not summed.
 */
export type RenewalKind = 'charge' | 'expires' | 'unpriced' | 'otherCurrency';

export interface ForecastRenewal {
  readonly source: RenewalSource;
  /** The user's calendar day, `YYYY-MM-DD`. */
  readonly day: string;
  readonly daysAway: number;
  readonly at?: number;
  readonly kind: RenewalKind;
  readonly amount?: Units;
  readonly currency?: string;
  /** The order gave no currency: the balance's is assumed (billing panels price an account in one currency). */
  readonly currencyAssumed?: true;
  readonly priceProblem?: AmountProblem;
  /** Undefined: the server did not say, and it is counted as renewing. */
  readonly autoRenew?: boolean;
  readonly projected: boolean;
  readonly overdue: boolean;
  /** Charges only, when a balance was read: the balance after this and every charge before it. */
  readonly balanceAfter?: Units;
  readonly covered?: boolean;
  /** When not covered: what must be added to pay this and every charge before it. */
  readonly shortBy?: Units;
  /** The unpaid invoice the server already issued for this renewal (same day, same amount). */
  readonly invoice?: { readonly invoiceId: string; readonly url?: string };
}

export interface UnpaidInvoice {
  readonly invoiceId: string;
  readonly number?: ServerText;
  /** Its due day; without one it is charged today. */
  readonly day?: string;
  readonly amount?: Units;
  readonly currency?: string;
  readonly url?: string;
  readonly overdue: boolean;
  /** The order whose renewal it bills: then it is counted once, on the order. */
  readonly orderId?: string;
}

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
      readonly coveredThrough?: string;
    };

/**
 * Why an order with renewal fields has nothing in the forecast. `stale`: its date lies so far back that the panel has
 * stopped renewing it (a cancelled service keeps its last due date); `ended`: its status word says so.
 */
export type NoForecast = 'dateUnreadable' | 'noDate' | 'stale' | 'oneTime' | 'free' | 'ended';

export interface OrderOutlook {
  readonly orderId: string;
  /** The next renewal day, even past the forecast's last day. */
  readonly nextDay?: string;
  readonly next?: ForecastRenewal;
  readonly firstUncovered?: ForecastRenewal;
  /** A charge within the warning window that the balance does not pay. */
  readonly warn: boolean;
  readonly noForecast?: NoForecast;
}

export interface ForecastTotals {
  readonly charges: number;
  readonly amount: Units;
  readonly notSummed: number;
  readonly otherCurrencies: readonly string[];
  readonly expiring: number;
}

export interface Forecast {
  readonly today: string;
  readonly horizonEnd: string;
  /** A bound ended the forecast before the days asked for (hostile amounts of renewals or money). */
  readonly cut?: 'renewalLimit' | 'amountLimit';
  readonly balance?: Units;
  /** The balance's currency, or the one every price shares when the balance gave none. */
  readonly currency?: string;
  readonly currencyAssumed?: true;
  /** In date order, orders in their list order within a day. */
  readonly renewals: readonly ForecastRenewal[];
  readonly totals: ForecastTotals;
  readonly coverage: Coverage;
  readonly runsOut?: ForecastRenewal;
  readonly unpaidInvoices: readonly UnpaidInvoice[];
  readonly orders: ReadonlyMap<string, OrderOutlook>;
}
