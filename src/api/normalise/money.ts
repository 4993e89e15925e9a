import { type AmountProblem, type RawObject } from '../models';
import { type Hit, type Names, Scope, bare, find, isObject, lookup, names, pathOf, words } from './read';

export const AMOUNT_SCALE = 10_000;
/** 10^11 currency units is more than any price or balance. */
const MAX_WHOLE_DIGITS = 11;
const MAX_TEXT = 64;

export const CURRENCY_FIELDS = names('currency currency_code curr iso_currency unit currency_iso');
const INNER_FIELDS = words('amount value price amount_cents value_cents amount_minor cents units');
const MAPPED = names('value');
const PLAIN = /^-?\d{1,11}(?:\.\d{1,4})?$/;
const MINOR_NAME = /(?:cents|minor|minor_?units)$/i;
const SYMBOLS = new Map(
  words('€EUR $USD £GBP ¥JPY ₽RUB ₹INR ₴UAH ₺TRY').map((s) => [s.slice(0, 1), s.slice(1)] as const),
);

export type UnitsRead =
  | { readonly units: number; readonly currency?: string; readonly problem?: undefined }
  | { readonly units?: undefined; readonly currency?: undefined; readonly problem: AmountProblem };

const NOT_AMOUNT: UnitsRead = { problem: 'notAmount' };

/** WHMCS sends `currency: 1` (an id) beside `currency_code: "USD"`. */
export function currencyCode(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 8) return undefined;
  const code = value.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : undefined;
}

export function currencyField(scopes: readonly Scope[]): { path: string; code: string } | undefined {
  const hit = find(scopes, CURRENCY_FIELDS, { accept: (value) => currencyCode(bare(value)) !== undefined });
  return hit && { path: pathOf(hit), code: currencyCode(bare(hit.value)) as string };
}

const digitsOf = new Map<string, number>();

function minorDigits(currency: string | undefined): number {
  if (!currency) return 2;
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
    } catch {
      // Not a code Intl knows.
    }
    digitsOf.set(currency, (digits ??= 2));
  }
  return digits;
}

export function roundToCurrency(units: number, currency: string | undefined): number {
  const step = 10 ** Math.max(0, 4 - minorDigits(currency));
  const rounded = Math.round(Math.abs(units) / step) * step;
  return units < 0 ? -rounded : rounded;
}

function isLetter(ch: string | undefined): boolean {
  return ch !== undefined && ch.toLowerCase() !== ch.toUpperCase();
}

function unitAt(text: string, end: boolean): [string, number] | undefined {
  const symbol = SYMBOLS.get((end ? text[text.length - 1] : text[0]) ?? '');
  if (symbol) return [symbol, 1];
  const code = end ? text.slice(-3) : text.slice(0, 3);
  const next = end ? text[text.length - 4] : text[3];
  return text.length > 3 && /^[a-z]{3}$/i.test(code) && !isLetter(next) ? [code.toUpperCase(), 3] : undefined;
}

/** The glossary's Units: one rule for separators. */
function unitsOfNumber(body: string, negative: boolean): UnitsRead {
  if (!/^[\d.,\s'’]+$/.test(body) || !/\d/.test(body[0] ?? '') || !/\d/.test(body[body.length - 1] ?? '')) {
    return NOT_AMOUNT;
  }
  const at = Math.max(body.lastIndexOf('.'), body.lastIndexOf(','));
  const mark = body[at];
  let point = -1;
  if (mark !== undefined && body.indexOf(mark) === at) {
    if (/^[1-9]\d{0,2},\d{3}$/.test(body)) return { problem: 'ambiguous' };
    point = at;
  } else if (mark !== undefined && body.includes(mark === '.' ? ',' : '.')) {
    return NOT_AMOUNT;
  }
  const groups = (point < 0 ? body : body.slice(0, point)).split(/[.,\s'’]/);
  const fraction = point < 0 ? '' : body.slice(point + 1);
  const grouped = groups.length === 1 || groups.every((g, i) => (i === 0 ? g.length <= 3 : g.length === 3));
  if (!grouped || !/^\d*$/.test(fraction)) return NOT_AMOUNT;
  const whole = groups.join('').replace(/^0+/, '');
  if (whole.length > MAX_WHOLE_DIGITS) return { problem: 'tooLarge' };
  // Finer than a ten-thousandth (usage accrued by the second) is rounded, as JSON numbers are.
  const roundUp = fraction.length > 4 && fraction.charCodeAt(4) >= 53 ? 1 : 0;
  const units = Number(whole || '0') * AMOUNT_SCALE + Number(fraction.slice(0, 4).padEnd(4, '0')) + roundUp;
  return { units: negative && units !== 0 ? -units : units };
}

/** "12.90", "1.234,50 €", "EUR -3", "$0.00 USD", or a JSON number (float noise such as 3.3000000000000003 rounded). */
export function readUnits(value: unknown): UnitsRead {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return NOT_AMOUNT;
    if (Math.abs(value) >= 10 ** MAX_WHOLE_DIGITS) return { problem: 'tooLarge' };
    return { units: Math.round(value * AMOUNT_SCALE) || 0 };
  }
  if (typeof value !== 'string' || value.length > MAX_TEXT) return NOT_AMOUNT;
  // Most of what servers send; 15 digits at most, so the float rounds back exactly.
  if (PLAIN.test(value)) return { units: Math.round(Number(value) * AMOUNT_SCALE) || 0 };
  let text = value.trim();
  let negative = false;
  const sign = (): void => {
    if (text[0] !== '-' && text[0] !== '+') return;
    negative ||= text[0] === '-';
    text = text.slice(1).trim();
  };
  sign();
  const before = unitAt(text, false);
  if (before) text = text.slice(before[1]).trim();
  sign();
  const after = unitAt(text, true);
  if (after) text = text.slice(0, -after[1]).trim();
  const read = unitsOfNumber(text, negative);
  // A code says more than a symbol: "$5.00 CAD" is in Canadian dollars.
  const unit = after?.[1] === 3 || !before ? after : before;
  return read.problem === undefined && unit ? { units: read.units, currency: unit[0] } : read;
}

function fromMinorUnits(read: UnitsRead & { problem?: undefined }, currency: string | undefined): UnitsRead {
  const units = Math.round(read.units / 10 ** minorDigits(read.currency ?? currency)) || 0;
  return read.currency ? { units, currency: read.currency } : { units };
}

/** In minor units as the glossary's Units says. */
export function readMoneyAt(obj: RawObject, key: string, currency?: string, minor = false, depth = 0): UnitsRead {
  const value = bare(obj[key]);
  if (isObject(value)) {
    const inner = depth < 2 ? lookup(value, INNER_FIELDS) : undefined;
    if (!inner) return NOT_AMOUNT;
    const own = currencyCode(bare(lookup(value, CURRENCY_FIELDS.list)?.value));
    const read = readMoneyAt(value, inner.key, own ?? currency, minor, depth + 1);
    return read.problem === undefined ? { units: read.units, currency: own ?? read.currency } : read;
  }
  const read = readUnits(value);
  if (read.problem !== undefined) return read;
  if (MINOR_NAME.test(key)) return fromMinorUnits(read, currency);
  const whole = read.units % AMOUNT_SCALE === 0;
  if (whole && minor) return fromMinorUnits(read, currency);
  if (!whole || typeof value !== 'number') return read;
  const formatted = lookup(obj, [`${key}_formatted`, `${key}_display`, `${key}_text`]);
  const shown = formatted && readUnits(formatted.value);
  const asMinor = fromMinorUnits(read, currency ?? shown?.currency);
  return shown?.units !== undefined && shown.units !== read.units && shown.units === asMinor.units ? asMinor : read;
}

export function findMoney(
  scopes: readonly Scope[],
  table: Names,
  mapped: unknown,
  currency: string | undefined,
  minor: boolean,
): { hit: Hit; units: number; currency?: string } | undefined {
  const where = mapped === undefined ? scopes : [new Scope({ value: mapped }, 'map')];
  let read: UnitsRead | undefined;
  const hit = find(where, mapped === undefined ? table : MAPPED, {
    accept: (_, key, scope) => (read = readMoneyAt(scope.obj, key, currency, minor)).units !== undefined,
  });
  return hit && read?.units !== undefined ? { hit, units: read.units, currency: read.currency } : undefined;
}
