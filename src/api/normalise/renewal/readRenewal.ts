import { type AmountProblem, type OrderRenewal, type RawObject, type RenewalCycle } from '../../models';
import { readDate } from '../dates';
import { currencyCode, currencyField, readMoneyAt } from '../money';
import { type FieldMap, type FieldMapKey, pointed } from '../pointers';
import { type FieldTrace, type Hit, type Names, Scope, bare, find, isObject, pathOf, squash } from '../read';
import { cycleOf, readCount, readCycleWord, readUnit } from './cycle';
import { MONTHLY_PRICES, OWN_CURRENCY, RENEWAL_FIELDS, RENEW_MONTHS } from './fields';
import { serverText } from '../../../util/serverText';

const MAX_CYCLE_TEXT = 40;
const F = RENEWAL_FIELDS;

/** WHMCS writes "" for a field it has no value for. */
function present(value: unknown): boolean {
  const v = bare(value);
  return v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');
}

function first(scopes: readonly Scope[], table: Names): Hit | undefined {
  return find(scopes, table, { accept: present });
}

interface PriceRead {
  readonly hit: Hit;
  readonly price?: number;
  readonly currency?: string;
  readonly problem?: AmountProblem;
}

function readPrice(hit: Hit | undefined, outer: string | undefined, minor: boolean): PriceRead | undefined {
  if (!hit) return undefined;
  const ownKey = Object.hasOwn(OWN_CURRENCY, squash(hit.key)) ? OWN_CURRENCY[squash(hit.key)] : undefined;
  const own = ownKey === undefined ? undefined : currencyCode(bare(hit.scope.obj[ownKey]));
  const currency = own ?? currencyField([hit.scope])?.code ?? outer;
  const read = readMoneyAt(hit.scope.obj, hit.key, currency, minor);
  if (read.problem !== undefined) return { hit, problem: read.problem };
  if (read.units < 0) return { hit, problem: 'negative' };
  return { hit, price: read.units, currency: read.currency ?? currency };
}

function cycleText(value: unknown): string | undefined {
  const v = bare(value);
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' ? v.trim().slice(0, MAX_CYCLE_TEXT) : undefined;
}

/** A count present but unreadable (`term: 1200`) leaves the cycle unknown, never one of the unit. */
function readCycle(
  scopes: readonly Scope[],
  word: Hit | undefined,
): { cycle?: RenewalCycle; text?: string; hit: Hit } | undefined {
  if (word) return { cycle: readCycleWord(bare(word.value)), text: cycleText(word.value), hit: word };
  // Not in a state container (`status: {period: …}`), as `find` skips them too.
  for (const hit of scopes.flatMap((scope) => (scope.stateOnly ? [] : scope.hits(F.unit)))) {
    const value = bare(hit.value);
    const unit = readUnit(value);
    if (unit) {
      const count = find([hit.scope], F.count, { accept: (v, k) => k !== hit.key && present(v) });
      const text = count && unit !== 'once' ? `${cycleText(count.value) ?? ''} ${cycleText(value) ?? ''}` : value;
      return { cycle: cycleOf(unit, count ? readCount(bare(count.value)) : 1), text: cycleText(text), hit };
    }
    const whole = readCycleWord(value);
    if (whole) return { cycle: whole, text: cycleText(value), hit };
  }
  return undefined;
}

/** A count is of months where the flag holds the renewal period. */
function readFlag(wrapped: unknown): { renews: boolean; months?: number } | undefined {
  const value = bare(wrapped);
  if (typeof value === 'boolean') return { renews: value };
  const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  const count = readCount(typeof value === 'number' ? value : text);
  if (count !== undefined) return count === 0 ? { renews: false } : { renews: true, months: count };
  if (text === undefined || text.length > 16) return undefined;
  if (['true', 'yes', 'y', 'on', 'enabled', 'active'].includes(text)) return { renews: true };
  if (['false', 'no', 'n', 'off', 'disabled', 'inactive', 'null', 'none'].includes(text)) return { renews: false };
  return undefined;
}

function readAutoRenew(
  scopes: readonly Scope[],
  renews: Hit | undefined,
): { autoRenew: boolean; months?: number; hit: Hit } | undefined {
  const hit = renews ?? first(scopes, F.doesNotRenew);
  const flag = hit && readFlag(hit.value);
  if (!hit || !flag) return undefined;
  const months = RENEW_MONTHS.includes(squash(hit.key)) ? flag.months : undefined;
  return { autoRenew: renews ? flag.renews : !flag.renews, months, hit };
}

function withNested(scopes: readonly Scope[]): Scope[] {
  const nested = scopes.flatMap((scope) => (scope.stateOnly ? [] : scope.hits(F.nested)));
  return [...scopes, ...nested.flatMap((hit) => (isObject(hit.value) ? [new Scope(hit.value, pathOf(hit))] : []))];
}

function mappedHit(map: FieldMap | undefined, key: FieldMapKey, raw: RawObject | undefined): Hit | undefined {
  const mapped = raw && pointed(map, key, raw);
  return mapped && present(mapped.value)
    ? { scope: new Scope({ value: mapped.value }, 'map'), key: 'value', value: mapped.value }
    : undefined;
}

/** An unreadable value is reported as such, never guessed. */
export function readRenewal(
  fields: RawObject | readonly Scope[],
  base = '',
  trace?: FieldTrace,
  map?: FieldMap,
  raw?: RawObject,
): OrderRenewal | undefined {
  const scopes = withNested(
    Array.isArray(fields) ? (fields as readonly Scope[]) : [new Scope(fields as RawObject, base)],
  );
  const given = (key: FieldMapKey): Hit | undefined => mappedHit(map, key, raw);
  const dateHit = given('renewalDate') ?? first(scopes, F.date);
  const date = dateHit && readDate(bare(dateHit.value));
  const outer = currencyField(scopes)?.code;
  const price = readPrice(given('renewalPrice') ?? first(scopes, F.price), outer, map?.amountScale === 'minor');
  const cycle = readCycle(scopes, given('renewalCycle') ?? first(scopes, F.cycle));
  const renew = readAutoRenew(scopes, given('renews') ?? first(scopes, F.renews));
  let cycleValue = cycle?.cycle;
  // Nothing else is assumed.
  if (!cycle && renew?.months !== undefined) cycleValue = cycleOf('month', renew.months);
  if (!cycle && price && MONTHLY_PRICES.includes(squash(price.hit.key))) cycleValue ??= cycleOf('month', 1);
  if (trace) {
    if (date && dateHit) trace.use('renewal', pathOf(dateHit));
    if (price?.price !== undefined) trace.use('price', pathOf(price.hit));
    if (cycle?.cycle) trace.use('cycle', pathOf(cycle.hit));
    if (renew) trace.use('autoRenew', pathOf(renew.hit));
  }
  // Never `String()` of a server object: it can throw (`{"toString":0}`).
  const dateValue = bare(dateHit?.value);
  const never = typeof dateValue === 'string' && dateValue.startsWith('0000-00-00');
  const unreadable = !date && dateHit !== undefined && !never;
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
