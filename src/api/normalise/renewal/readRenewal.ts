/**
 * What an order says about its next renewal: the date, the price and its currency, the cycle and whether it renews
 * on its own. The first field present decides each (a later field may mean something else); an unreadable value is
 * recorded as such, never replaced by a guess. BILLmanager's `{"$": "…"}` values are read through.
 */

import {
  type AmountProblem,
  type OrderRenewal,
  type RawObject,
  type RenewalCycle,
  type RenewalDate,
} from '../../models';
import { currencyCode } from '../money';
import { type FieldTrace, bare, isObject, joinPath } from '../read';
import { cycleOf, readCount, readCycleWord, readUnit } from './cycle';
import { readDate } from './dates';
import { type UnitsRead, unitsFromValue } from './decimal';
import { type Plan, type Scale, PlanCache } from './fields';
import { serverText } from '../../../util/serverText';

/** The server's own cycle word is kept for display, cut here. */
const MAX_CYCLE_TEXT = 40;
/** Currencies whose minor unit is not a hundredth (ISO 4217), for fields that say they hold minor units. */
const MINOR_DIGITS: Readonly<Record<string, number>> = {
  JPY: 0,
  KRW: 0,
  VND: 0,
  CLP: 0,
  ISK: 0,
  PYG: 0,
  UGX: 0,
  XAF: 0,
  XOF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

const topPlans = new PlanCache();
const nestedPlans = new PlanCache();

/**
 * The same texts come back order after order ("Monthly", "12.90", the same due days): each is read once. Bounded
 * like the key caches: short texts only, and the memory is dropped when full rather than grown.
 */
class TextMemo<T> {
  private readonly seen = new Map<string, T>();

  constructor(private readonly read: (value: unknown) => T) {}

  get(value: unknown): T {
    if (typeof value !== 'string' || value.length > 64) return this.read(value);
    let result = this.seen.get(value);
    if (result === undefined && !this.seen.has(value)) {
      result = this.read(value);
      if (this.seen.size >= 1024) this.seen.clear();
      this.seen.set(value, result);
    }
    return result as T;
  }
}

const dates = new TextMemo(readDate);
const amounts = new TextMemo(unitsFromValue);
const cycleWords = new TextMemo(readCycleWord);

/** Null, undefined and empty text are absent: WHMCS writes "" for a field it has no value for. */
function present(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

function firstPresent(obj: RawObject, keys: readonly string[]): { key: string; value: unknown } | undefined {
  for (const key of keys) {
    const value = bare(obj[key]);
    if (present(value)) return { key, value };
  }
  return undefined;
}

function currencyIn(obj: RawObject, plan: Plan): string | undefined {
  for (const key of plan.currency) {
    const code = currencyCode(bare(obj[key]));
    if (code) return code;
  }
  return undefined;
}

function scaled(read: UnitsRead, scale: Scale, currency: string | undefined): UnitsRead {
  if (read.problem !== undefined || scale === 'units') return read;
  const digits = scale === 'cents' ? 2 : (MINOR_DIGITS[currency ?? ''] ?? 2);
  const divisor = 10 ** digits;
  // Divided exactly, or not read: what would fall below a ten-thousandth of the currency is not a price.
  if (read.units % divisor !== 0) return { problem: 'tooPrecise' };
  return { units: read.units / divisor, currency: read.currency };
}

/** A money object `{amount|value, currency}`, one level deep. */
function readMoneyObject(obj: RawObject): UnitsRead {
  for (const name of ['amount', 'value', 'price']) {
    const value = bare(obj[name]);
    if (!present(value)) continue;
    const read = unitsFromValue(value);
    const code = currencyCode(bare(obj.currency ?? obj.currency_code));
    return read.problem === undefined && code ? { units: read.units, currency: code } : read;
  }
  return { problem: 'notAmount' };
}

interface PriceRead {
  readonly price?: number;
  readonly currency?: string;
  readonly problem?: AmountProblem;
  readonly key: string;
}

function readPrice(obj: RawObject, plan: Plan): PriceRead | undefined {
  for (const [key, scale] of plan.price) {
    const value = bare(obj[key]);
    if (!present(value)) continue;
    const own = key === 'override_price' ? currencyCode(bare(obj.override_currency)) : undefined;
    const currency = own ?? currencyIn(obj, plan);
    const read = scaled(isObject(value) ? readMoneyObject(value) : amounts.get(value), scale, currency);
    if (read.problem !== undefined) return { problem: read.problem, key };
    if (read.units < 0) return { problem: 'negative', key };
    return { price: read.units, currency: read.currency ?? currency, key };
  }
  return undefined;
}

interface CycleRead {
  readonly cycle?: RenewalCycle;
  readonly text?: string;
  readonly key: string;
}

function cycleText(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? value.trim().slice(0, MAX_CYCLE_TEXT) : undefined;
}

function readCycle(obj: RawObject, plan: Plan): CycleRead | undefined {
  const word = firstPresent(obj, plan.cycle);
  if (word) return { cycle: cycleWords.get(word.value), text: cycleText(word.value), key: word.key };
  for (const key of plan.unit) {
    const value = bare(obj[key]);
    const unit = readUnit(value);
    if (unit) {
      const counted = plan.count.find((k) => k !== key && readCount(bare(obj[k])) !== undefined);
      const count = counted === undefined ? undefined : readCount(bare(obj[counted]));
      const text =
        count === undefined || unit === 'once' ? cycleText(value) : `${count} ${cycleText(value) ?? ''}`.trim();
      return { cycle: cycleOf(unit, count), text, key };
    }
    const whole = readCycleWord(value);
    if (whole) return { cycle: whole, text: cycleText(value), key };
  }
  return undefined;
}

/** A renew flag: true/false, 1/0, yes/no, on/off; BILLmanager's `autoprolong` holds the renewal period in months. */
function readFlag(value: unknown): { renews: boolean; months?: number } | undefined {
  if (typeof value === 'boolean') return { renews: value };
  const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  const count = readCount(typeof value === 'number' ? value : text);
  if (count !== undefined) return count === 0 ? { renews: false } : { renews: true, months: count };
  if (text === undefined || text.length > 16) return undefined;
  if (['true', 'yes', 'y', 'on', 'enabled', 'active'].includes(text)) return { renews: true };
  if (['false', 'no', 'n', 'off', 'disabled', 'inactive', 'null', 'none'].includes(text)) return { renews: false };
  return undefined;
}

function readAutoRenew(obj: RawObject, plan: Plan): { autoRenew: boolean; months?: number; key: string } | undefined {
  for (const [key, inverted] of plan.renew) {
    const value = bare(obj[key]);
    if (!present(value)) continue;
    const flag = readFlag(value);
    if (!flag) return undefined;
    const months = !inverted && key.toLowerCase().includes('prolong') ? flag.months : undefined;
    return { autoRenew: inverted ? !flag.renews : flag.renews, months, key };
  }
  return undefined;
}

function nestedObjects(obj: RawObject, plan: Plan): RawObject[] {
  const found: RawObject[] = [];
  for (const key of plan.nested) {
    const value = obj[key];
    if (isObject(value)) found.push(value);
  }
  return found;
}

/** What the order's fields say about its renewal; undefined when they say nothing. */
export function readRenewal(fields: RawObject, base = '', trace?: FieldTrace): OrderRenewal | undefined {
  const plan = topPlans.planOf(fields);
  if (!plan.any) return undefined;
  const inner =
    plan.nested.length === 0 ? [] : nestedObjects(fields, plan).map((obj) => ({ obj, plan: nestedPlans.planOf(obj) }));
  const dateHit = firstPresent(fields, plan.date);
  const date: RenewalDate | undefined = dateHit ? dates.get(dateHit.value) : undefined;
  let price = readPrice(fields, plan);
  for (let i = 0; price === undefined && i < inner.length; i++) {
    const { obj, plan: p } = inner[i] as { obj: RawObject; plan: Plan };
    const read = readPrice(obj, p);
    price = read && read.currency === undefined ? { ...read, currency: currencyIn(fields, plan) } : read;
  }
  let cycle = readCycle(fields, plan);
  for (let i = 0; cycle === undefined && i < inner.length; i++) {
    const { obj, plan: p } = inner[i] as { obj: RawObject; plan: Plan };
    cycle = readCycle(obj, p);
  }
  const renew = readAutoRenew(fields, plan);
  let readCycleValue = cycle?.cycle;
  // A price per month says the cycle; BILLmanager's renewal period in months says it too. Nothing else is assumed.
  if (!cycle && renew?.months !== undefined) readCycleValue = cycleOf('month', renew.months);
  if (!cycle && !readCycleValue && price?.key.toLowerCase().includes('monthly')) readCycleValue = cycleOf('month', 1);
  if (trace) {
    if (date && dateHit) trace.use('renewal', joinPath(base, dateHit.key));
    if (price?.price !== undefined) trace.use('price', joinPath(base, price.key));
    if (readCycleValue && cycle) trace.use('cycle', joinPath(base, cycle.key));
    if (renew) trace.use('autoRenew', joinPath(base, renew.key));
  }
  const unreadable = !date && dateHit !== undefined && !/^0000-00-00/.test(String(dateHit.value));
  if (!date && !unreadable && !price && !readCycleValue && !cycle?.text && !renew) return undefined;
  const renewal: { -readonly [K in keyof OrderRenewal]: OrderRenewal[K] } = {};
  if (date) renewal.date = date;
  if (unreadable) renewal.dateUnreadable = true;
  if (price?.price !== undefined) renewal.price = price.price;
  if (price?.problem) renewal.priceProblem = price.problem;
  if (price?.currency) renewal.currency = price.currency;
  if (readCycleValue) renewal.cycle = readCycleValue;
  if (cycle?.text) renewal.cycleText = serverText(cycle.text);
  if (renew) renewal.autoRenew = renew.autoRenew;
  return renewal;
}
