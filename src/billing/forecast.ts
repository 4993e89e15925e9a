import { type Balance, type CycleUnit, type Invoice, type Order, type OrderRenewal } from '../api/models';
import { dayIn } from '../api/normalise/dates';
import { AMOUNT_SCALE, roundToCurrency } from '../api/normalise/money';
import {
  DAY_MS,
  LAST_DAY,
  type ZoneOffset,
  addMonths,
  dayOfInstant,
  dayText,
  parseDayText,
  startOfDay,
  systemZone,
} from '../util/calendar';
import { plain } from '../util/serverText';
import {
  type Coverage,
  type Forecast,
  type ForecastRenewal,
  type NoForecast,
  type OrderOutlook,
  type RenewalKind,
  type RenewalSource,
  type UnpaidInvoice,
  type Units,
} from './types';

export interface ForecastOptions {
  readonly horizonDays?: number;
  readonly zone?: ZoneOffset;
  readonly warningDays?: number;
  readonly staleDays?: number;
}

export const DEFAULT_HORIZON_DAYS = 90;
export const DEFAULT_WARNING_DAYS = 7;
const MAX_HORIZON_DAYS = 366;
const DEFAULT_STALE_DAYS = 31;
// An hourly order fills 400 renewals in 16 days; a hostile list stops at 100,000 in all.
const MAX_PER_ORDER = 400;
const MAX_RENEWALS = 100_000;
const HOUR_MS = 3_600_000;
// Whatever their due date says: WHMCS keeps a terminated order's.
const ENDED = new Set(['terminated', 'cancelled', 'canceled', 'fraud', 'deleted', 'closed', 'expired']);

type Outlook = { -readonly [K in keyof OrderOutlook]: OrderOutlook[K] };
type Shared = Pick<
  ForecastRenewal,
  'source' | 'kind' | 'amount' | 'currency' | 'currencyAssumed' | 'priceProblem' | 'autoRenew'
>;

interface Item {
  readonly source: RenewalSource;
  readonly day: number;
  readonly at?: number;
  readonly cycle?: { readonly unit: CycleUnit; readonly count: number };
  readonly outlook?: Outlook;
  readonly renewal?: OrderRenewal;
  readonly price?: Units;
  readonly currency?: string;
  readonly invoice?: ForecastRenewal['invoice'];
}

interface Slot {
  readonly index: number;
  readonly k: number;
  readonly day: number;
  readonly at?: number;
}

function whole(value: number | undefined, fallback: number, max: number): number {
  return value !== undefined && Number.isFinite(value) ? Math.min(max, Math.max(0, Math.floor(value))) : fallback;
}

function toUnits(amount: number): Units | undefined {
  const units = Math.round(amount * AMOUNT_SCALE);
  return Number.isSafeInteger(units) ? units : undefined;
}

// An instant is stepped in UTC, as servers compute them, then placed on the user's calendar.
function occurrence(item: Item, k: number, zone: ZoneOffset): { day: number; at?: number } | undefined {
  if (k === 0) return { day: item.day, at: item.at };
  const { cycle } = item;
  if (!cycle) return undefined;
  const steps = k * cycle.count;
  const months = cycle.unit === 'year' ? steps * 12 : cycle.unit === 'month' ? steps : 0;
  const stepMs = steps * (cycle.unit === 'hour' ? HOUR_MS : cycle.unit === 'week' ? 7 * DAY_MS : DAY_MS);
  let at: number | undefined;
  if (cycle.unit === 'hour') at = (item.at ?? startOfDay(item.day, zone)) + stepMs;
  else if (item.at === undefined) {
    const day = months ? addMonths(item.day, months) : item.day + stepMs / DAY_MS;
    return day !== undefined && day <= LAST_DAY ? { day } : undefined;
  } else if (months) {
    const utcDay = Math.floor(item.at / DAY_MS);
    const moved = addMonths(utcDay, months);
    at = moved === undefined ? undefined : moved * DAY_MS + (item.at - utcDay * DAY_MS);
  } else at = item.at + stepMs;
  const day = at === undefined ? undefined : dayOfInstant(at, zone);
  return day !== undefined && day <= LAST_DAY ? { day, at } : undefined;
}

function noForecastOf(order: Order, renewal: OrderRenewal): NoForecast | undefined {
  const status = order.statusText === undefined ? '' : plain(order.statusText);
  if (status.length <= 32 && ENDED.has(status.trim().toLowerCase())) return 'ended';
  if (renewal.cycle?.kind === 'once') return 'oneTime';
  if (renewal.cycle?.kind === 'free') return 'free';
  if (!renewal.date) return renewal.dateUnreadable ? 'dateUnreadable' : 'noDate';
  return undefined;
}

function unpaidOf(invoices: readonly Invoice[], today: number): UnpaidInvoice[] {
  const list: UnpaidInvoice[] = [];
  for (const invoice of invoices) {
    if (invoice.status !== 'unpaid' && invoice.status !== 'overdue') continue;
    const due = invoice.dueDate === undefined ? undefined : parseDayText(plain(invoice.dueDate));
    const amount = invoice.amount === undefined ? undefined : toUnits(invoice.amount);
    list.push({
      invoiceId: invoice.id,
      ...(invoice.number === undefined ? {} : { number: invoice.number }),
      ...(due === undefined ? {} : { day: dayText(due) }),
      ...(amount === undefined || amount < 0 ? {} : { amount }),
      ...(invoice.currency === undefined ? {} : { currency: invoice.currency }),
      ...(invoice.url === undefined ? {} : { url: invoice.url }),
      overdue: invoice.status === 'overdue' || (due !== undefined && due < today),
    });
  }
  return list;
}

function sumCurrency(balance: Balance | undefined, items: readonly Item[]): { currency?: string; assumed: boolean } {
  if (balance?.currency) return { currency: balance.currency, assumed: false };
  const all = new Set(items.map((item) => item.currency).filter((c) => c !== undefined));
  return all.size === 1 ? { currency: [...all][0], assumed: true } : { assumed: false };
}

function sharedOf(item: Item, currency: string | undefined): Shared {
  const autoRenew = item.renewal?.autoRenew;
  let kind: RenewalKind = 'charge';
  if (autoRenew === false) kind = 'expires';
  else if (item.price === undefined) kind = 'unpriced';
  else if (item.currency !== undefined && item.currency !== currency) kind = 'otherCurrency';
  const assumed = item.currency === undefined && currency !== undefined && kind === 'charge';
  const shown = assumed ? currency : item.currency;
  return {
    source: item.source,
    kind,
    amount: item.price === undefined ? undefined : roundToCurrency(item.price, shown),
    currency: shown,
    currencyAssumed: assumed ? true : undefined,
    priceProblem: item.renewal?.priceProblem,
    autoRenew,
  };
}

// An unpaid invoice for an order's next renewal (same day, same amount) is counted on the order.
function billsOf(unpaid: readonly UnpaidInvoice[]): Map<string, number[]> {
  const bills = new Map<string, number[]>();
  unpaid.forEach(({ day, amount }, i) => {
    const key = `${day}|${amount}`;
    if (day !== undefined && amount !== undefined) bills.set(key, [...(bills.get(key) ?? []), i]);
  });
  return bills;
}

function itemsOf(
  orders: readonly Order[],
  unpaid: UnpaidInvoice[],
  zone: ZoneOffset,
  today: number,
  staleFrom: number,
): { items: Item[]; outlooks: Map<string, Outlook> } {
  const bills = billsOf(unpaid);
  const outlooks = new Map<string, Outlook>();
  const items: Item[] = [];
  for (const order of orders) {
    const { renewal } = order;
    if (!renewal || outlooks.has(order.id)) continue;
    const first = renewal.date && dayIn(renewal.date, zone);
    const reason = noForecastOf(order, renewal) ?? (first === undefined || first < staleFrom ? 'stale' : undefined);
    const outlook: Outlook = { orderId: order.id, warn: false };
    outlooks.set(order.id, outlook);
    if (reason || first === undefined) {
      outlook.noForecast = reason;
      continue;
    }
    outlook.nextDay = dayText(first);
    let invoice: Item['invoice'];
    const places = renewal.autoRenew === false ? undefined : bills.get(`${outlook.nextDay}|${renewal.price}`);
    const place = places?.find((i) => {
      const { currency, orderId } = unpaid[i] as UnpaidInvoice;
      return orderId === undefined && (!currency || !renewal.currency || currency === renewal.currency);
    });
    if (place !== undefined) {
      const billed = (unpaid[place] = { ...(unpaid[place] as UnpaidInvoice), orderId: order.id });
      invoice = { invoiceId: billed.invoiceId, url: billed.url };
    }
    items.push({
      source: { kind: 'order', orderId: order.id, label: order.label },
      day: first,
      at: renewal.date?.kind === 'instant' ? renewal.date.at : undefined,
      cycle: renewal.cycle?.kind === 'every' && renewal.autoRenew !== false ? renewal.cycle : undefined,
      outlook,
      renewal,
      price: renewal.price,
      currency: renewal.currency,
      invoice,
    });
  }
  for (const { invoiceId, number, url, day, amount, currency, orderId } of unpaid) {
    if (orderId !== undefined) continue;
    // Without a readable due date an unpaid invoice is owed now.
    const due = day === undefined ? today : (parseDayText(day) as number);
    items.push({ source: { kind: 'invoice', invoiceId, number, url }, day: due, price: amount, currency });
  }
  return { items, outlooks };
}

// A bound moves the last day back, so every day listed is whole.
function listing(
  items: readonly Item[],
  shared: readonly Shared[],
  start: Units | undefined,
  zone: ZoneOffset,
  end: number,
): { slots: Slot[]; lastDay: number; cut?: Forecast['cut'] } {
  let lastDay = end;
  let cut: Forecast['cut'];
  const stopAt = (day: number, why: Forecast['cut']): void => {
    if (day <= lastDay) [lastDay, cut] = [day - 1, why];
  };
  let slots: Slot[] = [];
  const inOrder = (): Slot[] => {
    const sorted = slots
      .filter((s) => s.day <= lastDay)
      .sort((a, b) => a.day - b.day || a.index - b.index || a.k - b.k);
    const over = sorted[MAX_RENEWALS];
    if (over) stopAt(over.day, 'renewalLimit');
    return over ? sorted.filter((s) => s.day <= lastDay) : sorted;
  };
  items.forEach((item, index) => {
    for (let k = 0; ; k++) {
      const next = occurrence(item, k, zone);
      if (!next || next.day > lastDay) break;
      if (k === MAX_PER_ORDER) stopAt(next.day, 'renewalLimit');
      else slots.push({ index, k, day: next.day, at: next.at });
    }
    if (slots.length > 2 * MAX_RENEWALS) slots = inOrder();
  });
  slots = inOrder();
  let sum = 0;
  for (const slot of slots) {
    const { kind, amount } = shared[slot.index] as Shared;
    sum += kind === 'charge' ? (amount as number) : 0;
    // Past the exact integers of a double: only a hostile server gets here.
    if (!Number.isSafeInteger(sum) || !Number.isSafeInteger((start ?? 0) - sum)) {
      stopAt(slot.day, 'amountLimit');
      slots = slots.filter((s) => s.day <= lastDay);
      break;
    }
  }

  return { slots, lastDay, cut };
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

  const unpaid = unpaidOf(invoices, today);
  const { items, outlooks } = itemsOf(orders, unpaid, zone, today, staleFrom);
  const { currency, assumed } = sumCurrency(balance, items);
  const shared = items.map((item) => sharedOf(item, currency));
  const start = balance === undefined ? undefined : toUnits(balance.amount);

  const { slots, lastDay, cut } = listing(items, shared, start, zone, end);

  const renewals: ForecastRenewal[] = [];
  let running = start;
  let charges = 0;
  let amount = 0;
  let notSummed = 0;
  let expiring = 0;
  let coveredCount = 0;
  let coveredAmount = 0;
  const otherCurrencies = new Set<string>();
  let runsOut: ForecastRenewal | undefined;
  let lastCovered: ForecastRenewal | undefined;
  const days = new Map<number, string>();
  for (const { index, k, day, at } of slots) {
    if (!days.has(day)) days.set(day, dayText(day));
    const item = items[index] as Item;
    const part = shared[index] as Shared;
    let after: Units | undefined;
    if (part.kind === 'charge') {
      charges++;
      amount += part.amount as number;
      if (running !== undefined) running = after = running - (part.amount as number);
    } else if (part.kind === 'expires') expiring++;
    else {
      notSummed++;
      if (part.kind === 'otherCurrency' && part.currency) otherCurrencies.add(part.currency);
    }
    // Field by field: a spread followed by more fields makes each object a slow dictionary (V8).
    const renewal: ForecastRenewal = {
      source: part.source,
      kind: part.kind,
      amount: part.amount,
      currency: part.currency,
      currencyAssumed: part.currencyAssumed,
      priceProblem: part.priceProblem,
      autoRenew: part.autoRenew,
      day: days.get(day) as string,
      daysAway: day - today,
      at,
      projected: k > 0,
      overdue: day < today,
      balanceAfter: after,
      covered: after === undefined ? undefined : after >= 0,
      shortBy: after === undefined ? undefined : Math.max(0, -after),
      invoice: k === 0 ? item.invoice : undefined,
    };
    renewals.push(renewal);
    if (renewal.covered === true) {
      lastCovered = renewal;
      coveredCount++;
      coveredAmount += part.amount as number;
    } else if (renewal.covered === false) runsOut ??= renewal;
    const { outlook } = item;
    if (!outlook) continue;
    outlook.next ??= renewal;
    if (renewal.covered !== false || part.kind !== 'charge') continue;
    outlook.firstUncovered ??= renewal;
    if (renewal.daysAway <= warningDays) outlook.warn = true;
  }
  let coverage: Coverage;
  if (start === undefined) coverage = { kind: 'noBalance' };
  else if (charges === 0) coverage = { kind: 'nothingDue' };
  else if (runsOut) {
    const through = lastCovered ? { coveredThrough: lastCovered.day } : {};
    const shortBy = runsOut.shortBy as number;
    coverage = { kind: 'short', first: runsOut, shortBy, coveredCount, coveredAmount, ...through };
  } else {
    const through = (lastCovered as ForecastRenewal).day;
    coverage = { kind: 'covered', through, count: charges, amount, left: running as number };
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
    unpaidInvoices: unpaid,
    orders: outlooks,
  };
}
