import { type AmountProblem, type OrderRenewal, type RawObject, type RenewalCycle } from '../../models';
import { readDate } from '../dates';
import { currencyCode, fromMinor, readMoneyAt, readUnits } from '../money';
import { type FieldMap, pointed } from '../pointers';
import { type FieldTrace, bare, isObject, joinPath, squash, squashedIndex } from '../read';
import { cycleOf, readCount, readCycleWord, readUnit } from './cycle';
import { MONTHLY_PRICES, OWN_CURRENCY, RENEWAL_FIELDS, RENEW_MONTHS } from './fields';
import { serverText } from '../../../util/serverText';

const MAX_CYCLE_TEXT = 40;

type Role = keyof typeof RENEWAL_FIELDS;
/** Per role, the table's names an object has and its own key for each. */
type Plan = { readonly [R in Role]: ReadonlyArray<readonly [name: string, key: string]> };
interface Hit {
  readonly name: string;
  readonly key: string;
  readonly value: unknown;
}

/** Orders of one list share their keys: the plan is made once per shape (`squashedIndex` is shared by a shape). */
const plans = new WeakMap<object, Plan | null>();

function planOf(obj: RawObject): Plan | null {
  const index = squashedIndex(obj);
  let plan = plans.get(index);
  if (plan === undefined) {
    const made = {} as Record<Role, Array<readonly [string, string]>>;
    let any = false;
    for (const role of Object.keys(RENEWAL_FIELDS) as Role[]) {
      made[role] = [];
      for (const name of RENEWAL_FIELDS[role]) {
        const key = Object.hasOwn(obj, name) ? name : index.get(squash(name));
        if (key !== undefined) made[role].push([name, key]);
      }
      any ||= made[role].length > 0 && role !== 'currency' && role !== 'count';
    }
    plan = any ? made : null;
    plans.set(index, plan);
  }
  return plan;
}

/** Null, undefined and empty text are absent: WHMCS writes "" for a field it has no value for. */
function present(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

function first(obj: RawObject, entries: Plan[Role]): Hit | undefined {
  for (const [name, key] of entries) {
    const value = bare(obj[key]);
    if (present(value)) return { name, key, value };
  }
  return undefined;
}

function currencyIn(obj: RawObject, plan: Plan): string | undefined {
  for (const [, key] of plan.currency) {
    const code = currencyCode(bare(obj[key]));
    if (code) return code;
  }
  return undefined;
}

interface PriceRead extends Hit {
  readonly price?: number;
  readonly currency?: string;
  readonly problem?: AmountProblem;
}

function readPrice(obj: RawObject, plan: Plan, outer?: string): PriceRead | undefined {
  const hit = first(obj, plan.price);
  if (!hit) return undefined;
  const own = OWN_CURRENCY[hit.name];
  const currency = (own && currencyCode(bare(obj[own]))) || currencyIn(obj, plan) || outer;
  const read = readMoneyAt(obj, hit.key, currency);
  const { name, key, value } = hit;
  if (read.problem !== undefined) return { name, key, value, problem: read.problem };
  if (read.units < 0) return { name, key, value, problem: 'negative' };
  return { name, key, value, price: read.units, currency: read.currency ?? currency };
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

/** A count field present but unreadable (`term: 1200`) leaves the cycle unknown, never one of the unit. */
function readCycle(obj: RawObject, plan: Plan): CycleRead | undefined {
  const word = first(obj, plan.cycle);
  if (word) return { cycle: readCycleWord(word.value), text: cycleText(word.value), key: word.key };
  for (const [, key] of plan.unit) {
    const value = bare(obj[key]);
    const unit = readUnit(value);
    if (unit) {
      const count = first(
        obj,
        plan.count.filter(([, k]) => k !== key),
      );
      const text = count && unit !== 'once' ? `${cycleText(count.value) ?? ''} ${cycleText(value) ?? ''}` : value;
      return { cycle: cycleOf(unit, count ? readCount(count.value) : 1), text: cycleText(text), key };
    }
    const whole = readCycleWord(value);
    if (whole) return { cycle: whole, text: cycleText(value), key };
  }
  return undefined;
}

/** true/false, 1/0, yes/no, on/off; a count of months where the flag holds the renewal period. */
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
  const hit = first(obj, plan.renews) ?? first(obj, plan.doesNotRenew);
  const flag = hit && readFlag(hit.value);
  if (!hit || !flag) return undefined;
  const inverted = (RENEWAL_FIELDS.doesNotRenew as readonly string[]).includes(hit.name);
  const months = RENEW_MONTHS.includes(hit.name) ? flag.months : undefined;
  return { autoRenew: inverted ? !flag.renews : flag.renews, months, key: hit.key };
}

/**
 * What an order's fields say about its next renewal: the date, the price and its currency, the cycle and whether it
 * renews on its own; undefined when they say nothing. An unreadable value is reported as such, never guessed.
 */
export function readRenewal(fields: RawObject, base = '', trace?: FieldTrace): OrderRenewal | undefined {
  const plan = planOf(fields);
  if (!plan) return undefined;
  const inner: Array<[RawObject, Plan]> = [];
  for (const [, key] of plan.nested) {
    const obj = fields[key];
    const innerPlan = isObject(obj) ? planOf(obj) : null;
    if (isObject(obj) && innerPlan) inner.push([obj, innerPlan]);
  }
  const dateHit = first(fields, plan.date);
  const date = dateHit && readDate(dateHit.value);
  let price = readPrice(fields, plan);
  for (const [obj, p] of inner) price ??= readPrice(obj, p, currencyIn(fields, plan));
  let cycle = readCycle(fields, plan);
  for (const [obj, p] of inner) cycle ??= readCycle(obj, p);
  const renew = readAutoRenew(fields, plan);
  let cycleValue = cycle?.cycle;
  // A price per month says the cycle, and so does BILLmanager's renewal period in months; nothing else is assumed.
  if (!cycle && renew?.months !== undefined) cycleValue = cycleOf('month', renew.months);
  if (!cycle && price && MONTHLY_PRICES.includes(price.name)) cycleValue ??= cycleOf('month', 1);
  if (trace) {
    if (date && dateHit) trace.use('renewal', joinPath(base, dateHit.key));
    if (price?.price !== undefined) trace.use('price', joinPath(base, price.key));
    if (cycle?.cycle) trace.use('cycle', joinPath(base, cycle.key));
    if (renew) trace.use('autoRenew', joinPath(base, renew.key));
  }
  const unreadable = !date && dateHit !== undefined && !String(dateHit.value).startsWith('0000-00-00');
  if (!date && !unreadable && !price && !cycleValue && !cycle?.text && !renew) return undefined;
  const renewal: { -readonly [K in keyof OrderRenewal]: OrderRenewal[K] } = {};
  if (date) renewal.date = date;
  if (unreadable) renewal.dateUnreadable = true;
  if (price?.price !== undefined) renewal.price = price.price;
  if (price?.problem) renewal.priceProblem = price.problem;
  if (price?.currency) renewal.currency = price.currency;
  if (cycleValue) renewal.cycle = cycleValue;
  if (cycle?.text) renewal.cycleText = serverText(cycle.text);
  if (renew) renewal.autoRenew = renew.autoRenew;
  return renewal;
}

/** The renewal fields a field map points at, over the general reading's. */
export function readMappedRenewal(raw: RawObject, map: FieldMap, read?: OrderRenewal): OrderRenewal | undefined {
  const renewal: { -readonly [K in keyof OrderRenewal]: OrderRenewal[K] } = { ...read };
  const date = pointed(map, 'renewalDate', raw);
  const day = date && readDate(bare(date.value));
  if (day) {
    renewal.date = day;
    delete renewal.dateUnreadable;
  }
  const price = pointed(map, 'renewalPrice', raw);
  if (price && price.value !== undefined) {
    const units = readUnits(bare(price.value));
    const read = map.amountScale === 'minor' ? fromMinor(units, renewal.currency) : units;
    if (read.problem === undefined && read.units >= 0) {
      renewal.price = read.units;
      if (read.currency) renewal.currency = read.currency;
      delete renewal.priceProblem;
    }
  }
  const cycle = pointed(map, 'renewalCycle', raw);
  const cycleRead = cycle && readCycleWord(bare(cycle.value));
  if (cycle && cycleRead) {
    renewal.cycle = cycleRead;
    renewal.cycleText = serverText(cycleText(bare(cycle.value)) ?? '');
  }
  const renews = pointed(map, 'renews', raw);
  const flag = renews && readFlag(bare(renews.value));
  if (flag) renewal.autoRenew = flag.renews;
  return Object.keys(renewal).length ? renewal : undefined;
}
