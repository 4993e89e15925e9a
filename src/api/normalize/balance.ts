import { ApiError } from '../errors';
import { type Balance } from '../models';
import { asNumber, asText, describe, field, isObject, textField, unwrapObject } from './read';

const AMOUNT_FIELDS = ['balance', 'amount', 'value', 'credit', 'credits', 'available', 'available_balance', 'funds',
  'current', 'current_balance', 'total', 'account_balance', 'money'];
const CENT_FIELDS = ['amount_cents', 'balance_cents', 'cents', 'amount_minor', 'minor_units'];
const CURRENCY_FIELDS = ['currency', 'currency_code', 'currencyCode', 'curr', 'iso_currency', 'unit'];

const SYMBOLS: Readonly<Record<string, string>> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY', '₽': 'RUB', '₹': 'INR' };
/** Longer than any amount written out: a longer text is not money, and nothing below runs over it. */
const MAX_MONEY_TEXT = 64;

/** A currency written before or after the amount: a three-letter code or a symbol. */
function unitAt(text: string, start: number): string | undefined {
  const symbol = text[start];
  if (symbol !== undefined && SYMBOLS[symbol]) return symbol;
  const code = text.slice(start, start + 3);
  return /^[a-z]{3}$/i.test(code) ? code : undefined;
}

/** "42.50 EUR", "EUR 42.50", "€42.50", "$-3" → amount and currency. Cut first, then read once, left to right. */
function parseMoneyText(input: string): { amount: number; currency?: string } | undefined {
  if (input.length > MAX_MONEY_TEXT) return undefined;
  let text = input.trim();
  const before = unitAt(text, 0);
  if (before) text = text.slice(before.length).trim();
  const after = before ? undefined : unitAt(text, Math.max(0, text.length - 3)) ?? unitAt(text, text.length - 1);
  if (after) text = text.slice(0, text.length - after.length).trim();
  const amount = /^[-+]?[\d.,\s]+$/.test(text) ? asNumber(text) : undefined;
  if (amount === undefined) return undefined;
  const unit = before ?? after;
  return { amount, currency: unit ? (SYMBOLS[unit] ?? unit.toUpperCase()) : undefined };
}

function readAmount(value: unknown): { amount: number; currency?: string } | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? { amount: value } : undefined;
  if (typeof value === 'string') return parseMoneyText(value);
  if (isObject(value)) return readMoneyObject(value);
  return undefined;
}

function readMoneyObject(obj: Readonly<Record<string, unknown>>): { amount: number; currency?: string } | undefined {
  const currency = textField(obj, CURRENCY_FIELDS);
  for (const name of AMOUNT_FIELDS) {
    const found = readAmount(field(obj, [name]));
    if (found) return { amount: found.amount, currency: currency ?? found.currency };
  }
  const cents = asNumber(field(obj, CENT_FIELDS));
  if (cents !== undefined) return { amount: cents / 100, currency };
  return undefined;
}

export function normaliseBalance(body: unknown): Balance {
  const top = readAmount(body);
  if (top && !isObject(body)) {
    return { ...top, currency: top.currency?.toUpperCase(), raw: body as number | string };
  }
  const obj = unwrapObject(body, ['data', 'result', 'account', 'wallet'], [...AMOUNT_FIELDS, ...CENT_FIELDS]);
  const money = obj ? readMoneyObject(obj) : undefined;
  if (!obj || !money) {
    throw new ApiError('badResponse', `Expected a balance (a number, or an object with "balance"/"amount"), got ${describe(body)}.`);
  }
  const currency = asText(money.currency)?.toUpperCase();
  return { amount: money.amount, currency: currency && /^[A-Z]{3}$/.test(currency) ? currency : undefined, raw: obj };
}
