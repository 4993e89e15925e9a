import { type AmountProblem } from '../api/models';
import { type ServerText } from '../util/serverText';

// See ARCHITECTURE.md's glossary: Units.
export type Units = number;

export type RenewalSource =
  | { readonly kind: 'order'; readonly orderId: string; readonly label: ServerText }
  | { readonly kind: 'invoice'; readonly invoiceId: string; readonly number?: ServerText; readonly url?: string };

// `expires`: the order does not renew and ends that day (never charged); the last two are listed, not summed.
export type RenewalKind = 'charge' | 'expires' | 'unpriced' | 'otherCurrency';

export interface ForecastRenewal {
  readonly source: RenewalSource;
  readonly day: string;
  readonly daysAway: number;
  readonly at?: number;
  readonly kind: RenewalKind;
  readonly amount?: Units;
  readonly currency?: string;
  // Billing panels price an account in one currency.
  readonly currencyAssumed?: true;
  readonly priceProblem?: AmountProblem;
  // Undefined: the server did not say, and it is counted as renewing.
  readonly autoRenew?: boolean;
  readonly projected: boolean;
  readonly overdue: boolean;
  readonly balanceAfter?: Units;
  readonly covered?: boolean;
  readonly shortBy?: Units;
  readonly invoice?: { readonly invoiceId: string; readonly url?: string };
}

export interface UnpaidInvoice {
  readonly invoiceId: string;
  readonly number?: ServerText;
  // Without one it is charged today.
  readonly day?: string;
  readonly amount?: Units;
  readonly currency?: string;
  readonly url?: string;
  readonly overdue: boolean;
  // Then it is counted once, on the order.
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

// `stale`: a cancelled service keeps its last due date.
export type NoForecast = 'dateUnreadable' | 'noDate' | 'stale' | 'oneTime' | 'free' | 'ended';

export interface OrderOutlook {
  readonly orderId: string;
  // Even past the forecast's last day.
  readonly nextDay?: string;
  readonly next?: ForecastRenewal;
  readonly firstUncovered?: ForecastRenewal;
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
  readonly cut?: 'renewalLimit' | 'amountLimit';
  readonly balance?: Units;
  readonly currency?: string;
  readonly currencyAssumed?: true;
  readonly renewals: readonly ForecastRenewal[];
  readonly totals: ForecastTotals;
  readonly coverage: Coverage;
  readonly runsOut?: ForecastRenewal;
  readonly unpaidInvoices: readonly UnpaidInvoice[];
  readonly orders: ReadonlyMap<string, OrderOutlook>;
}
