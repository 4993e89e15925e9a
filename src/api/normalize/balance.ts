import { ApiError } from '../errors';
import { type Balance } from '../models';
import { asNumber, asText, describe, field, isObject, textField, unwrapObject } from './read';

const AMOUNT_FIELDS = ['balance', 'amount', 'value', 'credit', 'credits', 'available', 'available_balance', 'funds',
  'current', 'current_balance', 'total', 'account_balance', 'money'];
const CENT_FIELDS = ['amount_cents', 'balance_cents', 'cents', 'amount_minor', 'minor_units'];
const CURRENCY_FIELDS = ['currency', 'currency_code', 'currencyCode', 'curr', 'iso_currency', 'unit'];

/** "42.50 EUR", "EUR 42.50", "€42.50", "$-3" → amount and currency. */
function parseMoneyText(text: string): { amount: number; currency?: string } | undefined {
  const symbols: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY', '₽': 'RUB', '₹': 'INR' };
  const match = /^\s*([A-Za-z]{3}|[€$£¥₽₹])?\s*([-+]?[\d.,\s]+)\s*([A-Za-z]{3}|[€$£¥₽₹])?\s*$/.exec(text);
  if (!match) return undefined;
  const amount = asNumber(match[2]);
  if (amount === undefined) return undefined;
  const unit = match[1] ?? match[3];
  return { amount, currency: unit ? (symbols[unit] ?? unit.toUpperCase()) : undefined };
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
