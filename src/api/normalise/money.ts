/** Amounts and currencies in the forms servers send: numbers, "42.50 EUR", `{amount, currency}`, minor units. */

import { type RawObject } from '../models';
import { type FieldTrace, type Hit, asNumber, isObject, joinPath, lookup } from './read';

export const CURRENCY_FIELDS = [
  'currency',
  'currency_code',
  'currencyCode',
  'curr',
  'iso_currency',
  'unit',
  'currency_iso',
];

/** Currency symbols a provider may write instead of the code; one table for every amount the readers meet. */
export const SYMBOLS: Readonly<Record<string, string>> = {
  '€': 'EUR',
  $: 'USD',
  '£': 'GBP',
  '¥': 'JPY',
  '₽': 'RUB',
  '₹': 'INR',
  '₴': 'UAH',
  '₺': 'TRY',
};
/** Longer than any amount written out: a longer text is not money, and nothing below runs over it. */
const MAX_MONEY_TEXT = 64;

export interface Money {
  readonly amount: number;
  readonly currency?: string;
}

/** A currency written before or after the amount: a three-letter code or a symbol. */
function unitAt(text: string, start: number): string | undefined {
  const symbol = text[start];
  if (symbol !== undefined && SYMBOLS[symbol]) return symbol;
  const code = text.slice(start, start + 3);
  return /^[a-z]{3}$/i.test(code) ? code : undefined;
}

/** "42.50 EUR", "EUR 42.50", "€42.50", "$-3", "$0.00 USD" → amount and currency. Cut first, then read once. */
export function parseMoneyText(input: string): Money | undefined {
  if (input.length > MAX_MONEY_TEXT) return undefined;
  let text = input.trim();
  const before = unitAt(text, 0);
  if (before) text = text.slice(before.length).trim();
  const after = unitAt(text, Math.max(0, text.length - 3)) ?? unitAt(text, text.length - 1);
  if (after) text = text.slice(0, text.length - after.length).trim();
  const amount = /^[-+]?[\d.,\s]+$/.test(text) ? asNumber(text) : undefined;
  if (amount === undefined) return undefined;
  const code = [after, before].find((unit) => unit !== undefined && !SYMBOLS[unit]);
  const unit = code ?? before ?? after;
  return { amount, currency: unit ? (SYMBOLS[unit] ?? unit.toUpperCase()) : undefined };
}

/** An ISO 4217-looking code, or undefined: WHMCS sends `currency: 1` (an id) beside `currency_code: "USD"`. */
export function currencyCode(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 8) return undefined;
  const code = value.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : undefined;
}

/** The first currency field that holds a code. */
export function readCurrency(obj: RawObject, base: string, trace?: FieldTrace): string | undefined {
  for (const name of CURRENCY_FIELDS) {
    const hit = lookup(obj, [name]);
    const code = hit ? currencyCode(hit.value) : undefined;
    if (hit && code) {
      trace?.use('currency', joinPath(base, hit.key));
      return code;
    }
  }
  return undefined;
}

/** A field name that says its amount is in minor units (cents). */
function isMinorUnits(key: string): boolean {
  const lower = key.toLowerCase();
  return lower.endsWith('cents') || lower.endsWith('minor') || lower.endsWith('minor_units') || lower === 'minorunits';
}

/** An amount in a field: a number, money text, or an object `{value|amount, currency}`; depth-bounded. */
export function readAmountAt(hit: Hit, base: string, trace?: FieldTrace, depth = 0): Money | undefined {
  const path = joinPath(base, hit.key);
  const scale = isMinorUnits(hit.key) ? 100 : 1;
  let money: Money | undefined;
  if (typeof hit.value === 'number') money = Number.isFinite(hit.value) ? { amount: hit.value } : undefined;
  else if (typeof hit.value === 'string') money = parseMoneyText(hit.value);
  else if (isObject(hit.value) && depth < 2) return readMoneyObject(hit.value, path, trace, depth + 1);
  if (!money) return undefined;
  trace?.use('amount', path);
  return scale === 1 ? money : { amount: money.amount / scale, currency: money.currency };
}

const INNER_AMOUNT_FIELDS = ['amount', 'value', 'amount_cents', 'value_cents', 'amount_minor', 'cents', 'units'];

/** `{amount: 10, currency: "CHF"}`, `{value: "1.5", currency_code: "EUR"}`, `{amount_minor: 150, currency}`. */
export function readMoneyObject(
  obj: RawObject,
  base: string,
  trace?: FieldTrace,
  depth = 0,
  amountFields: readonly string[] = INNER_AMOUNT_FIELDS,
): Money | undefined {
  for (const name of amountFields) {
    const hit = lookup(obj, [name]);
    const money = hit ? readAmountAt(hit, base, trace, depth) : undefined;
    if (money) return { amount: money.amount, currency: readCurrency(obj, base, trace) ?? money.currency };
  }
  return undefined;
}
