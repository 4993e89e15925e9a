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
import { type Item, type OrderSide, type Outlook, collectOrders, collectUnpaid, sumCurrency } from './items';
import { type Schedule, schedule } from './schedule';
import { type Coverage, type Forecast, type ForecastRenewal, type RenewalKind, type Units } from './types';

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
function fitting(listed: Schedule, charges: ReadonlyArray<number | undefined>, start: Units): number {
  let sum = 0;
  for (let i = 0; i < listed.seq.length; i++) {
    sum += charges[listed.seq[i] as number] ?? 0;
    if (!Number.isSafeInteger(sum) || !Number.isSafeInteger(start - sum)) {
      let kept = i;
      while (kept > 0 && listed.day[kept - 1] === listed.day[i]) kept--;
      return kept;
    }
  }
  return listed.seq.length;
}

function noteOutlook(outlook: Outlook, renewal: ForecastRenewal, warningDays: number): void {
  outlook.next ??= renewal;
  if (renewal.kind !== 'charge' || renewal.covered !== false) return;
  outlook.firstUncovered ??= renewal;
  if (renewal.daysAway <= warningDays) outlook.warn = true;
}

/**
 * One renewal, lean: its own fields are only what differs from one renewal of an order to the next (the day, the
 * balance after it); what it shares with the order's other renewals, and what follows from the balance, is read
 * through. A forecast of 10,000 orders makes 30,000 of these.
 */
class Entry implements ForecastRenewal {
  /** The order's item (its outlook is still being filled in): private to the entry, so no comparison or dump walks it. */
  readonly #what: Item;

  constructor(
    what: Item,
    readonly day: string,
    readonly daysAway: number,
    readonly at: number | undefined,
    readonly projected: boolean,
    readonly balanceAfter: Units | undefined,
  ) {
    this.#what = what;
  }

  get source(): ForecastRenewal['source'] {
    return this.#what.source;
  }

  get kind(): RenewalKind {
    return this.#what.kind;
  }

  get amount(): Units | undefined {
    return this.#what.amount;
  }

  get currency(): string | undefined {
    return this.#what.shownCurrency;
  }

  get currencyAssumed(): true | undefined {
    return this.#what.currencyAssumed;
  }

  get priceProblem(): ForecastRenewal['priceProblem'] {
    return this.#what.priceProblem;
  }

  get autoRenew(): boolean | undefined {
    return this.#what.autoRenew;
  }

  get overdue(): boolean {
    return this.daysAway < 0;
  }

  get covered(): boolean | undefined {
    return this.balanceAfter === undefined ? undefined : this.balanceAfter >= 0;
  }

  get shortBy(): Units | undefined {
    const after = this.balanceAfter;
    return after === undefined ? undefined : after >= 0 ? 0 : -after;
  }

  get invoice(): ForecastRenewal['invoice'] {
    return this.projected ? undefined : this.#what.invoice;
  }

  /** Written out whole, as a plain renewal would be (its shared part is read through getters). */
  toJSON(): ForecastRenewal {
    const { source, day, daysAway, at, kind, amount, currency, currencyAssumed, priceProblem, autoRenew } = this;
    const { projected, overdue, balanceAfter, covered, shortBy, invoice } = this;
    return {
      source,
      day,
      daysAway,
      at,
      kind,
      amount,
      currency,
      currencyAssumed,
      priceProblem,
      autoRenew,
      projected,
      overdue,
      balanceAfter,
      covered,
      shortBy,
      invoice,
    };
  }
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

  // Each day's text is made once: thousands of renewals share a few hundred days (from the stale bound to the end).
  const texts: Array<string | undefined> = new Array<string | undefined>(end - staleFrom + 1).fill(undefined);
  const textOf = (day: number): string => {
    if (day < staleFrom || day > end) return dayText(day);
    return (texts[day - staleFrom] ??= dayText(day));
  };
  const unpaid = collectUnpaid(invoices, today);
  const side: OrderSide = collectOrders(orders, unpaid, { zone, staleFrom, dayText: textOf });
  const { items, outlooks } = side;
  const { currency, assumed } = sumCurrency(balance, items);
  // Unpaid invoices are owed however old; only order dates are held to the stale bound (in collectOrders).
  const listed = schedule(items, 0, end, zone, { perSequence: MAX_PER_ORDER, total: MAX_RENEWALS });
  const start = balance === undefined ? undefined : balanceUnits(balance.amount);

  // What a renewal is depends on its order alone: worked out once per order, not per renewal, and kept on the order's
  // item, which every renewal of it reads through (items are this forecast's own).
  const charged = new Array<number | undefined>(items.length).fill(undefined);
  for (let seq = 0; seq < items.length; seq++) {
    const item = items[seq] as Item;
    const kind = kindOf(item, currency);
    const assumed = item.currency === undefined && currency !== undefined && kind === 'charge';
    item.kind = kind;
    item.shownCurrency = assumed ? currency : item.currency;
    item.currencyAssumed = assumed ? true : undefined;
    if (kind === 'charge') charged[seq] = item.amount;
  }
  const count = fitting(listed, charged, start ?? 0);
  const total = listed.seq.length;
  const lastDay = count < total ? (listed.day[count] as number) - 1 : listed.lastDay;
  const cut = count < total ? 'amountLimit' : listed.cut ? 'renewalLimit' : undefined;

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
    const seq = listed.seq[i] as number;
    const day = listed.day[i] as number;
    const at = listed.at[i] as number;
    const k = listed.k[i] as number;
    const item = items[seq] as Item;
    const kind = item.kind;
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
    const renewal = new Entry(item, textOf(day), day - today, Number.isNaN(at) ? undefined : at, k > 0, after);
    const covered = renewal.covered;
    renewals.push(renewal);
    if (covered === true) {
      lastCovered = renewal;
      coveredCount++;
      coveredAmount += item.amount as number;
    } else if (covered === false) {
      runsOut ??= renewal;
    }
    if (item.outlook) noteOutlook(item.outlook, renewal, warningDays);
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
