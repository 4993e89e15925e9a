/**
 * Money read exactly: amounts become integers of 1/10,000 of the currency unit ("units"), the four decimal places
 * billing panels store prices with (`decimal(…,4)`), so sums never drift the way floats do. Text is read digit by
 * digit, never through a float; a JSON number is read through its shortest decimal form.
 *
 * Separators: a lone dot is a decimal point (machine formatting: "1.5", "12.9000"); a lone comma followed by one,
 * two or four-plus digits is a decimal comma ("12,90"); "1,234" and "1.234,5"-style mixes are read by their last
 * separator, with groups of three checked; a lone comma followed by exactly three digits ("1,234") could be either
 * and is not read. Spaces, no-break spaces and apostrophes only group digits.
 */

import { type AmountProblem } from '../../models';
import { SYMBOLS } from '../money';

export const AMOUNT_SCALE = 10_000;
const SCALE_DIGITS = 4;
/** Whole digits read: 10^11 currency units is more than any price or balance; more is not money. */
const MAX_WHOLE_DIGITS = 11;
/** Longer than any amount written out: a longer text is not money, and nothing below runs over it. */
const MAX_TEXT = 64;

export type UnitsRead =
  | { readonly units: number; readonly currency?: string; readonly problem?: undefined }
  | { readonly units?: undefined; readonly currency?: undefined; readonly problem: AmountProblem };

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isGroupMark(ch: string): boolean {
  return ch === ' ' || ch === '\u00a0' || ch === '\u202f' || ch === "'" || ch === '’';
}

/** A currency written before the number: a symbol or three letters. */
function leadingUnit(text: string): { currency: string; length: number } | undefined {
  const first = text[0];
  if (first !== undefined && SYMBOLS[first]) return { currency: SYMBOLS[first], length: 1 };
  if (text.length > 3 && isLetter(text.charCodeAt(0)) && isLetter(text.charCodeAt(1)) && isLetter(text.charCodeAt(2))) {
    return isLetter(text.charCodeAt(3)) ? undefined : { currency: text.slice(0, 3).toUpperCase(), length: 3 };
  }
  return undefined;
}

/** A currency written after the number. */
function trailingUnit(text: string): { currency: string; length: number } | undefined {
  const last = text[text.length - 1];
  if (last !== undefined && SYMBOLS[last]) return { currency: SYMBOLS[last], length: 1 };
  const n = text.length;
  if (
    n > 3 &&
    isLetter(text.charCodeAt(n - 1)) &&
    isLetter(text.charCodeAt(n - 2)) &&
    isLetter(text.charCodeAt(n - 3))
  ) {
    return isLetter(text.charCodeAt(n - 4)) ? undefined : { currency: text.slice(n - 3).toUpperCase(), length: 3 };
  }
  return undefined;
}

/** Digit runs and the single marks between them; undefined when anything else is there. */
function splitRuns(body: string): { runs: string[]; marks: string[] } | undefined {
  const runs: string[] = [];
  const marks: string[] = [];
  let start = 0;
  for (let i = 0; i <= body.length; i++) {
    if (i < body.length && isDigit(body.charCodeAt(i))) continue;
    if (i === start) return undefined;
    runs.push(body.slice(start, i));
    if (i < body.length) {
      const mark = body[i] as string;
      if (mark !== '.' && mark !== ',' && !isGroupMark(mark)) return undefined;
      marks.push(mark);
    }
    start = i + 1;
  }
  return { runs, marks };
}

/** Which mark is the decimal separator, 'none', or a problem. */
function decimalMark(marks: readonly string[], lastRun: string): '.' | ',' | 'none' | 'notAmount' | 'ambiguous' {
  let dots = 0;
  let commas = 0;
  for (const mark of marks) {
    if (mark === '.') dots++;
    else if (mark === ',') commas++;
  }
  const last = marks[marks.length - 1];
  if (dots > 0 && commas > 0) {
    // "1.234,56" and "1,234.56": the last one separates decimals, once, and the other only groups.
    if (last !== '.' && last !== ',') return 'notAmount';
    return (last === '.' ? dots : commas) === 1 ? last : 'notAmount';
  }
  if (dots === 1) return last === '.' ? '.' : 'notAmount';
  if (commas === 1) {
    if (last !== ',') return 'notAmount';
    return lastRun.length === 3 ? 'ambiguous' : ',';
  }
  return 'none';
}

/** Groups before the decimal separator: the first of one to three digits, each next of exactly three. */
function groupsValid(runs: readonly string[]): boolean {
  if (runs.length === 1) return true;
  if ((runs[0] as string).length > 3) return false;
  for (let i = 1; i < runs.length; i++) if ((runs[i] as string).length !== 3) return false;
  return true;
}

function unitsOf(whole: string, fraction: string, negative: boolean): UnitsRead {
  const digits = whole.replace(/^0+/, '');
  if (digits.length > MAX_WHOLE_DIGITS) return { problem: 'tooLarge' };
  let kept = fraction;
  if (fraction.length > SCALE_DIGITS) {
    if (!/^0*$/.test(fraction.slice(SCALE_DIGITS))) return { problem: 'tooPrecise' };
    kept = fraction.slice(0, SCALE_DIGITS);
  }
  const units = Number(digits || '0') * AMOUNT_SCALE + Number(kept.padEnd(SCALE_DIGITS, '0'));
  return { units: negative && units !== 0 ? -units : units };
}

/** "12.90", "1,234.50", "12,90 €", "EUR -3", "$0.00 USD" → units and the currency written with it. */
export function unitsFromText(input: string): UnitsRead {
  if (input.length > MAX_TEXT) return { problem: 'notAmount' };
  let text = input.trim();
  let negative = false;
  if (text.startsWith('-') || text.startsWith('+')) {
    negative = text.startsWith('-');
    text = text.slice(1).trim();
  }
  const before = leadingUnit(text);
  if (before) text = text.slice(before.length).trim();
  if (!negative && (text.startsWith('-') || text.startsWith('+'))) {
    negative = text.startsWith('-');
    text = text.slice(1).trim();
  }
  const after = trailingUnit(text);
  if (after) text = text.slice(0, text.length - after.length).trim();
  const split = splitRuns(text);
  if (!split) return { problem: 'notAmount' };
  const { runs, marks } = split;
  const mark = decimalMark(marks, runs[runs.length - 1] as string);
  if (mark === 'notAmount' || mark === 'ambiguous') return { problem: mark };
  const wholeRuns = mark === 'none' ? runs : runs.slice(0, -1);
  if (!groupsValid(wholeRuns)) return { problem: 'notAmount' };
  const read = unitsOf(wholeRuns.join(''), mark === 'none' ? '' : (runs[runs.length - 1] as string), negative);
  const unit = after ?? before;
  return read.problem === undefined && unit ? { units: read.units, currency: unit.currency } : read;
}

/** A JSON number, read through its shortest decimal form ("12.95", never 12.949999…). */
export function unitsFromNumber(value: number): UnitsRead {
  if (!Number.isFinite(value)) return { problem: 'notAmount' };
  const size = Math.abs(value);
  if (size >= 10 ** MAX_WHOLE_DIGITS) return { problem: 'tooLarge' };
  if (value === 0) return { units: 0 };
  // Below 1e-6 JavaScript writes an exponent; such an amount is finer than a ten-thousandth anyway.
  if (size < 1e-6) return { problem: 'tooPrecise' };
  return unitsFromText(String(value));
}

/** A number or numeric text; anything else is not an amount. */
export function unitsFromValue(value: unknown): UnitsRead {
  if (typeof value === 'number') return unitsFromNumber(value);
  if (typeof value === 'string') return unitsFromText(value);
  return { problem: 'notAmount' };
}

/**
 * A balance the server wrote with more decimals than a ten-thousandth (usage accrued by the second) is rounded down:
 * the forecast must never count money the account may not have.
 */
export function balanceUnits(amount: number): number | undefined {
  const read = unitsFromNumber(amount);
  if (read.problem === undefined) return read.units;
  return read.problem === 'tooPrecise' ? Math.floor(amount * AMOUNT_SCALE) : undefined;
}
