/**
 * What the forecast lists: each order with a readable renewal becomes a sequence of renewals, each unpaid invoice a
 * single charge on its due day. An unpaid invoice for an order's next renewal (same day, same amount, as panels issue
 * them before the due date) is counted once, on the order; otherwise both are counted, which errs towards warning
 * early rather than late.
 */

import {
  type AmountProblem,
  type Balance,
  type Invoice,
  type Order,
  type OrderRenewal,
  type RenewalDate,
} from '../api/models';
import { unitsFromNumber } from '../api/normalise/renewal/decimal';
import { type ZoneOffset, dayOfInstant, dayText, parseDayText } from '../util/calendar';
import { type Sequence } from './schedule';
import {
  type NoForecast,
  type OrderOutlook,
  type RenewalKind,
  type RenewalSource,
  type UnpaidInvoice,
  type Units,
} from './types';
import { plain } from '../util/serverText';

/** An order's outlook while the forecast fills it in (the forecast returns it as read-only). */
export type Outlook = { -readonly [K in keyof OrderOutlook]: OrderOutlook[K] };

/**
 * One sequence: when it first renews and its cycle (what the schedule reads), and its constant part: what renews, for
 * how much, and the outlook of its order.
 */
export interface Item extends Sequence {
  readonly outlook?: Outlook;
  readonly source: RenewalSource;
  readonly autoRenew?: boolean;
  readonly amount?: Units;
  readonly currency?: string;
  readonly priceProblem?: AmountProblem;
  /** The unpaid invoice issued for the first renewal. */
  readonly invoice?: { readonly invoiceId: string; readonly url?: string };
  /** Filled in by the forecast once the currency of its sums is known (every item has them, so all share a shape). */
  kind: RenewalKind;
  shownCurrency: string | undefined;
  currencyAssumed: true | undefined;
}

export interface Unpaid {
  readonly list: UnpaidInvoice[];
  /** By `day|amount`, the places in `list` of the unpaid invoices with that due day and amount. */
  readonly byDayAmount: Map<string, number[]>;
  /** The due days in `byDayAmount`: most orders renew on a day no invoice is due, and need no key made. */
  readonly days: Set<number>;
}

export function collectUnpaid(invoices: readonly Invoice[], today: number): Unpaid {
  const list: UnpaidInvoice[] = [];
  const byDayAmount = new Map<string, number[]>();
  const days = new Set<number>();
  for (const invoice of invoices) {
    if (invoice.status !== 'unpaid' && invoice.status !== 'overdue') continue;
    const due = invoice.dueDate === undefined ? undefined : parseDayText(plain(invoice.dueDate));
    const read = invoice.amount === undefined ? undefined : unitsFromNumber(invoice.amount);
    const amount = read && read.problem === undefined && read.units >= 0 ? read.units : undefined;
    if (due !== undefined && amount !== undefined) {
      const same = byDayAmount.get(`${due}|${amount}`);
      if (same) same.push(list.length);
      else byDayAmount.set(`${due}|${amount}`, [list.length]);
      days.add(due);
    }
    list.push({
      invoiceId: invoice.id,
      ...(invoice.number === undefined ? {} : { number: invoice.number }),
      ...(due === undefined ? {} : { day: dayText(due) }),
      ...(amount === undefined ? {} : { amount }),
      ...(invoice.currency === undefined ? {} : { currency: invoice.currency }),
      ...(invoice.url === undefined ? {} : { url: invoice.url }),
      overdue: invoice.status === 'overdue' || (due !== undefined && due < today),
    });
  }
  return { list, byDayAmount, days };
}

/** The currency sums are in: the balance's; else the one every price listed shares; else none. */
export function sumCurrency(
  balance: Balance | undefined,
  items: readonly Item[],
): { currency: string | undefined; assumed: boolean } {
  if (balance?.currency) return { currency: balance.currency, assumed: false };
  let only: string | undefined;
  for (const item of items) {
    if (item.currency === undefined || item.currency === only) continue;
    if (only !== undefined) return { currency: undefined, assumed: false };
    only = item.currency;
  }
  return only === undefined ? { currency: undefined, assumed: false } : { currency: only, assumed: true };
}

/** Status words of orders that will not renew whatever their due date says (WHMCS keeps a terminated one's). */
const ENDED = new Set(['terminated', 'cancelled', 'canceled', 'fraud', 'deleted', 'closed', 'expired']);

function noForecastOf(order: Order, renewal: OrderRenewal): NoForecast | undefined {
  if (ended(order.statusText === undefined ? undefined : plain(order.statusText))) return 'ended';
  if (renewal.cycle?.kind === 'once') return 'oneTime';
  if (renewal.cycle?.kind === 'free') return 'free';
  if (!renewal.date) return renewal.dateUnreadable ? 'dateUnreadable' : 'noDate';
  return undefined;
}

function dayOf(date: RenewalDate, zone: ZoneOffset): number | undefined {
  return date.kind === 'day' ? parseDayText(date.day) : dayOfInstant(date.at, zone);
}

export interface OrderSide {
  readonly items: Item[];
  readonly outlooks: Map<string, Outlook>;
}

/** An invoice matches an order's renewal when the currencies agree or either is not given. */
function matches(invoice: UnpaidInvoice, currency: string | undefined): boolean {
  return invoice.currency === undefined || currency === undefined || invoice.currency === currency;
}

/** The first unpaid invoice not yet matched that bills this renewal. */
function billedBy(
  unpaid: Unpaid,
  billed: Set<number>,
  day: number,
  renewal: OrderRenewal,
): { unpaid: UnpaidInvoice; at: number } | undefined {
  if (renewal.price === undefined || !unpaid.days.has(day)) return undefined;
  for (const at of unpaid.byDayAmount.get(`${day}|${renewal.price}`) ?? []) {
    const invoice = unpaid.list[at] as UnpaidInvoice;
    if (billed.has(at) || !matches(invoice, renewal.currency)) continue;
    billed.add(at);
    return { unpaid: invoice, at };
  }
  return undefined;
}

/** Every outlook has every field (absent ones undefined): one shape, filled in as the forecast goes. */
function outlook(orderId: string, noForecast: NoForecast | undefined, nextDay?: string): Outlook {
  return { orderId, nextDay, next: undefined, firstUncovered: undefined, warn: false, noForecast };
}

/** Status words repeat from order to order: each is looked at once. */
const endedWords = new Map<string, boolean>();

function ended(statusText: string | undefined): boolean {
  if (statusText === undefined || statusText.length > 32) return false;
  let known = endedWords.get(statusText);
  if (known === undefined) {
    known = ENDED.has(statusText.trim().toLowerCase());
    if (endedWords.size >= 256) endedWords.clear();
    endedWords.set(statusText, known);
  }
  return known;
}

export function collectOrders(
  orders: readonly Order[],
  unpaid: Unpaid,
  options: { readonly zone: ZoneOffset; readonly staleFrom: number; readonly dayText: (day: number) => string },
): OrderSide {
  const items: Item[] = [];
  const outlooks: OrderSide['outlooks'] = new Map();
  const billed = new Set<number>();
  for (const order of orders) {
    const { renewal } = order;
    if (!renewal || outlooks.has(order.id)) continue;
    const reason = noForecastOf(order, renewal);
    const first = renewal.date && dayOf(renewal.date, options.zone);
    if (reason || first === undefined || first < options.staleFrom) {
      outlooks.set(order.id, outlook(order.id, reason ?? 'stale'));
      continue;
    }
    // The first renewal's day is the next one's, in the forecast or past its last day.
    const mine = outlook(order.id, undefined, options.dayText(first));
    outlooks.set(order.id, mine);
    const date = renewal.date as RenewalDate;
    const cycle = renewal.cycle?.kind === 'every' && renewal.autoRenew !== false ? renewal.cycle : undefined;
    const invoice =
      renewal.autoRenew === false || unpaid.byDayAmount.size === 0
        ? undefined
        : billedBy(unpaid, billed, first, renewal);
    if (invoice) unpaid.list[invoice.at] = { ...invoice.unpaid, orderId: order.id };
    items.push({
      day: date.kind === 'day' ? first : undefined,
      at: date.kind === 'day' ? undefined : date.at,
      cycle,
      outlook: mine,
      source: { kind: 'order', orderId: order.id, label: order.label },
      autoRenew: renewal.autoRenew,
      amount: renewal.price,
      currency: renewal.currency,
      priceProblem: renewal.priceProblem,
      invoice: invoice ? { invoiceId: invoice.unpaid.invoiceId, url: invoice.unpaid.url } : undefined,
      kind: 'charge',
      shownCurrency: undefined,
      currencyAssumed: undefined,
    });
  }
  for (const invoice of unpaid.list) {
    if (invoice.orderId !== undefined || invoice.day === undefined) continue;
    const { invoiceId, number, url } = invoice;
    items.push({
      day: parseDayText(invoice.day),
      at: undefined,
      cycle: undefined,
      outlook: undefined,
      source: { kind: 'invoice', invoiceId, number, url },
      autoRenew: undefined,
      amount: invoice.amount,
      currency: invoice.currency,
      priceProblem: undefined,
      invoice: undefined,
      kind: 'charge',
      shownCurrency: undefined,
      currencyAssumed: undefined,
    });
  }
  return { items, outlooks };
}
