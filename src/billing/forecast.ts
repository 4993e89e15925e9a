/**
 * Billing foresight as a pure function: the renewals of the next days in date order, with the balance running down
 * through them, the first renewal it does not pay, totals, and what each order faces.
 *
 * The arithmetic assumes every charge is paid in date order: a renewal the balance cannot pay leaves the running
 * balance below zero, and every later charge is "not covered" too, short by what must be added to pay it and all
 * before it (a provider would suspend the server instead; the user who wants to keep every server needs that sum).
 * Money is integers of 1/10,000 of the currency unit, never floats. A renewal in another currency than the balance
 * is listed and not summed; an order that does not renew is listed as expiring and never charged; an order whose
 * date or price cannot be read gets no charge and no warning rather than a guess.
 */

import { type Balance, type Invoice, type Order } from '../api/models';
import { balanceUnits } from '../api/normalise/renewal/decimal';
import { type ZoneOffset, dayOfInstant, dayText, systemZone } from '../util/calendar';
import { type Item, type OrderSide, collectOrders, collectUnpaid, sumCurrency } from './items';
import { schedule } from './schedule';
import {
  type Coverage,
  type Forecast,
  type ForecastRenewal,
  type OrderOutlook,
  type RenewalKind,
  type Units,
} from './types';

export interface ForecastOptions {
  /** Days ahead, after today: 90 unless said (0 to 366). */
  readonly horizonDays?: number;
  /** The user's zone; the machine's unless said (tests pass fixed zones). */
  readonly zone?: ZoneOffset;
  /** An order is flagged when a charge it cannot pay is this many days away or fewer: 7 unless said. */
  readonly warningDays?: number;
  /** Renewal dates further in the past are not forecast (a cancelled service keeps its last due date): 31 unless said. */
  readonly staleDays?: number;
}

export const DEFAULT_HORIZON_DAYS = 90;
export const DEFAULT_WARNING_DAYS = 7;
const MAX_HORIZON_DAYS = 366;
const DEFAULT_STALE_DAYS = 31;
/** Bounds on the listing: an hourly order fills 400 entries in 16 days; 100,000 orders renew once each in all. */
const MAX_PER_ORDER = 400;
const MAX_RENEWALS = 100_000;

function whole(value: number | undefined, fallback: number, max: number): number {
  return value !== undefined && Number.isFinite(value) ? Math.min(max, Math.max(0, Math.floor(value))) : fallback;
}

function kindOf(item: Item, currency: string | undefined): RenewalKind {
  if (item.autoRenew === false && item.source.kind === 'order') return 'expires';
  if (item.amount === undefined) return 'unpriced';
  return item.currency !== undefined && item.currency !== currency ? 'otherCurrency' : 'charge';
}

/**
 * How many entries the sums can take before leaving the range integers are exact in (only a hostile server gets
 * there): the entries of the day that would overflow are left out, with the days after it.
 */
function fitting(amounts: ReadonlyArray<number | undefined>, days: readonly number[], start: Units): number {
  let sum = 0;
  for (let i = 0; i < amounts.length; i++) {
    sum += amounts[i] ?? 0;
    if (!Number.isSafeInteger(sum) || !Number.isSafeInteger(start - sum)) {
      let kept = i;
      while (kept > 0 && days[kept - 1] === days[i]) kept--;
      return kept;
    }
  }
  return amounts.length;
}

function noteOutlook(
  outlooks: Map<string, OrderOutlook>,
  orderId: string,
  renewal: ForecastRenewal,
  warningDays: number,
): void {
  const outlook = outlooks.get(orderId);
  if (!outlook) return;
  const uncovered = renewal.kind === 'charge' && renewal.covered === false;
  const warn = uncovered && renewal.daysAway <= warningDays;
  if (outlook.next && (!uncovered || outlook.firstUncovered) && (!warn || outlook.warn)) return;
  const firstUncovered = outlook.firstUncovered ?? (uncovered ? renewal : undefined);
  outlooks.set(orderId, {
    ...outlook,
    next: outlook.next ?? renewal,
    ...(firstUncovered ? { firstUncovered } : {}),
    warn: outlook.warn || warn,
  });
}

export function forecast(
  balance: Balance | undefined,
  orders: readonly Order[],
  invoices: readonly Invoice[],
  now: number,
  options: ForecastOptions = {},
): Forecast {
  if (!Number.isFinite(now)) throw new RangeError('forecast: now must be a time');
  const zone = options.zone ?? systemZone;
  const today = dayOfInstant(now, zone);
  const end = today + whole(options.horizonDays, DEFAULT_HORIZON_DAYS, MAX_HORIZON_DAYS);
  const warningDays = whole(options.warningDays, DEFAULT_WARNING_DAYS, MAX_HORIZON_DAYS);
  const staleFrom = today - whole(options.staleDays, DEFAULT_STALE_DAYS, MAX_HORIZON_DAYS);

  const unpaid = collectUnpaid(invoices, today);
  const { currency, assumed } = sumCurrency(balance, orders, unpaid.list);
  const side: OrderSide = collectOrders(orders, unpaid, { zone, staleFrom });
  const { items, seqs, outlooks } = side;
  // Unpaid invoices are owed however old; only order dates are held to the stale bound (in collectOrders).
  const listed = schedule(seqs, 0, end, zone, { perSequence: MAX_PER_ORDER, total: MAX_RENEWALS });
  const start = balance === undefined ? undefined : balanceUnits(balance.amount);

  const kinds = listed.entries.map((entry) => kindOf(items[entry.seq] as Item, currency));
  const charged = listed.entries.map((entry, i) => (kinds[i] === 'charge' ? (items[entry.seq] as Item).amount : 0));
  const count = fitting(
    charged,
    listed.entries.map((entry) => entry.day),
    start ?? 0,
  );
  const lastDay = count < listed.entries.length ? (listed.entries[count] as { day: number }).day - 1 : listed.lastDay;
  const cut = count < listed.entries.length ? 'amountLimit' : listed.cut ? 'renewalLimit' : undefined;

  const renewals: ForecastRenewal[] = [];
  let running = start;
  let charges = 0;
  let amount = 0;
  let notSummed = 0;
  let expiring = 0;
  const otherCurrencies = new Set<string>();
  let runsOut: ForecastRenewal | undefined;
  let lastCovered: ForecastRenewal | undefined;
  let coveredAmount = 0;
  let coveredCount = 0;
  for (let i = 0; i < count; i++) {
    const entry = listed.entries[i] as (typeof listed.entries)[number];
    const item = items[entry.seq] as Item;
    const kind = kinds[i] as RenewalKind;
    let after: Units | undefined;
    if (kind === 'charge') {
      charges++;
      amount += item.amount as number;
      after = running === undefined ? undefined : running - (item.amount as number);
      running = after;
    } else if (kind === 'expires') {
      expiring++;
    } else {
      notSummed++;
      if (kind === 'otherCurrency' && item.currency) otherCurrencies.add(item.currency);
    }
    const covered = after === undefined ? undefined : after >= 0;
    const shown =
      item.currency !== undefined
        ? { currency: item.currency }
        : currency !== undefined && kind === 'charge'
          ? { currency, currencyAssumed: true as const }
          : {};
    const renewal: ForecastRenewal = {
      source: item.source,
      day: dayText(entry.day),
      daysAway: entry.day - today,
      ...(entry.at === undefined ? {} : { at: entry.at }),
      kind,
      ...(item.amount === undefined ? {} : { amount: item.amount }),
      ...shown,
      ...(item.priceProblem ? { priceProblem: item.priceProblem } : {}),
      ...(item.autoRenew === undefined ? {} : { autoRenew: item.autoRenew }),
      projected: entry.k > 0,
      overdue: entry.day < today,
      ...(after === undefined ? {} : { balanceAfter: after, covered, shortBy: covered ? 0 : -after }),
      ...(item.invoice && entry.k === 0 ? { invoice: item.invoice } : {}),
    };
    renewals.push(renewal);
    if (covered === true) {
      lastCovered = renewal;
      coveredCount++;
      coveredAmount += item.amount as number;
    } else if (covered === false) {
      runsOut ??= renewal;
    }
    if (item.source.kind === 'order') noteOutlook(outlooks, item.source.orderId, renewal, warningDays);
  }
  for (const [orderId, day] of side.firstDays) {
    const outlook = outlooks.get(orderId) as OrderOutlook;
    outlooks.set(orderId, { ...outlook, nextDay: outlook.next ? outlook.next.day : dayText(day) });
  }

  let coverage: Coverage;
  if (start === undefined) coverage = { kind: 'noBalance' };
  else if (charges === 0) coverage = { kind: 'nothingDue' };
  else if (runsOut) {
    const through = lastCovered ? { coveredThrough: lastCovered.day } : {};
    coverage = {
      kind: 'short',
      first: runsOut,
      shortBy: runsOut.shortBy as number,
      coveredCount,
      coveredAmount,
      ...through,
    };
  } else {
    const last = (lastCovered as ForecastRenewal).day;
    coverage = { kind: 'covered', through: last, count: charges, amount, left: running as number };
  }
  return {
    today: dayText(today),
    horizonEnd: dayText(lastDay),
    ...(cut ? { cut } : {}),
    ...(start === undefined ? {} : { balance: start }),
    ...(currency === undefined ? {} : { currency }),
    ...(assumed ? { currencyAssumed: true as const } : {}),
    renewals,
    totals: { charges, amount, notSummed, otherCurrencies: [...otherCurrencies].sort(), expiring },
    coverage,
    ...(runsOut ? { runsOut } : {}),
    unpaidInvoices: unpaid.list,
    orders: outlooks,
  };
}
