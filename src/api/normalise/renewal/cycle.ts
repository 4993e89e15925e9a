/**
 * Billing cycles in the words panels use: WHMCS and HostBill ("Monthly", "Semi-Annually", "One Time", "Free
 * Account"), Blesta and Paymenter (a count and a unit: 1 + "month", 3 + "month", 0 + "onetime"), and text such as
 * "3 months". A word not listed is not guessed.
 */

import { type CycleUnit, type RenewalCycle } from '../../models';

/** Counts above this are not a cycle (a thousand hours is six weeks; a thousand years is not a renewal). */
const MAX_COUNT = 1000;
/** Longer than any cycle word: a longer text is not one, and nothing below runs over it. */
const MAX_TEXT = 32;

const every = (unit: CycleUnit, count = 1): RenewalCycle => ({ kind: 'every', unit, count });
const ONCE: RenewalCycle = { kind: 'once' };
const FREE: RenewalCycle = { kind: 'free' };

/** Keys are lower case without spaces, hyphens or underscores. */
const WORDS: ReadonlyMap<string, RenewalCycle> = new Map([
  ['hourly', every('hour')],
  ['daily', every('day')],
  ['weekly', every('week')],
  ['biweekly', every('week', 2)],
  ['fortnightly', every('week', 2)],
  ['monthly', every('month')],
  ['bimonthly', every('month', 2)],
  ['quarterly', every('month', 3)],
  ['semiannually', every('month', 6)],
  ['semiannual', every('month', 6)],
  ['halfyearly', every('month', 6)],
  ['annually', every('year')],
  ['annual', every('year')],
  ['yearly', every('year')],
  ['biennially', every('year', 2)],
  ['biennial', every('year', 2)],
  ['triennially', every('year', 3)],
  ['triennial', every('year', 3)],
  ['quadrennially', every('year', 4)],
  ['quinquennially', every('year', 5)],
  ['onetime', ONCE],
  ['once', ONCE],
  ['lifetime', ONCE],
  ['free', FREE],
  ['freeaccount', FREE],
]);

const UNITS: ReadonlyMap<string, CycleUnit | 'once'> = new Map([
  ['hour', 'hour'],
  ['hours', 'hour'],
  ['day', 'day'],
  ['days', 'day'],
  ['week', 'week'],
  ['weeks', 'week'],
  ['month', 'month'],
  ['months', 'month'],
  ['year', 'year'],
  ['years', 'year'],
  ['onetime', 'once'],
]);

function key(text: string): string | undefined {
  if (text.length > MAX_TEXT) return undefined;
  const squashed = text.toLowerCase().replace(/[\s_-]+/g, '');
  return squashed || undefined;
}

/** A whole count from a number or digits, within bounds. */
export function readCount(value: unknown): number | undefined {
  const count = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim() || 'x') : NaN;
  return Number.isInteger(count) && count >= 0 && count <= MAX_COUNT ? count : undefined;
}

/** A unit word alone ("month"), as Blesta's `period` and Paymenter's `billing_unit` hold it. */
export function readUnit(value: unknown): CycleUnit | 'once' | undefined {
  if (typeof value !== 'string') return undefined;
  const k = key(value);
  return k === undefined ? undefined : UNITS.get(k);
}

/** A unit and a count; a count of 0 only means "once" with the unit 'once'. */
export function cycleOf(unit: CycleUnit | 'once', count: number | undefined): RenewalCycle | undefined {
  if (unit === 'once') return ONCE;
  const n = count ?? 1;
  return n >= 1 ? every(unit, n) : undefined;
}

/** A whole cycle written as one word or as "3 months". */
export function readCycleWord(value: unknown): RenewalCycle | undefined {
  if (typeof value !== 'string') return undefined;
  const k = key(value);
  if (k === undefined) return undefined;
  const word = WORDS.get(k);
  if (word) return word;
  const unit = UNITS.get(k);
  if (unit) return cycleOf(unit, 1);
  const match = /^(\d{1,4})([a-z]{3,6})$/.exec(k);
  const counted = match ? UNITS.get(match[2] as string) : undefined;
  return counted && match ? cycleOf(counted, readCount(match[1])) : undefined;
}
