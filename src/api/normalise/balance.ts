import { type Balance } from '../models';
import { type Money, currencyCode, parseMoneyText, readAmountAt, readCurrency } from './money';
import { type FieldTrace, lookup } from './read';
import { unexpectedBody } from './unreadable';
import { unwrapObject } from './wrappers';

/** In order of preference: what the account can spend, then what it holds. Minor units where the name says so. */
const AMOUNT_FIELDS = [
  'balance',
  'credit_balance',
  'account_balance',
  'available_balance',
  'current_balance',
  'balance_cents',
  'balance_minor',
  'amount',
  'amount_cents',
  'amount_minor',
  'value',
  'credit',
  'credits',
  'available',
  'funds',
  'current',
  'total',
  'money',
  'cents',
  'minor_units',
];
const WRAPPERS = ['data', 'result', 'response', 'account', 'wallet', 'billing', 'client', 'customer', 'user', 'me'];

function readTop(body: unknown): Money | undefined {
  if (typeof body === 'number') return Number.isFinite(body) ? { amount: body } : undefined;
  return typeof body === 'string' ? parseMoneyText(body) : undefined;
}

export function normaliseBalance(body: unknown, trace?: FieldTrace): Balance {
  const top = readTop(body);
  if (top) return { amount: top.amount, currency: currencyCode(top.currency), raw: body as number | string };
  const entry = unwrapObject(body, WRAPPERS, AMOUNT_FIELDS);
  let money: Money | undefined;
  for (const name of entry ? AMOUNT_FIELDS : []) {
    const hit = entry && lookup(entry.fields, [name]);
    money = hit ? readAmountAt(hit, entry.base, trace) : undefined;
    if (money) break;
  }
  if (!entry || !money) throw unexpectedBody('balance', body);
  const currency = currencyCode(money.currency) ?? readCurrency(entry.fields, entry.base, trace);
  return { amount: money.amount, currency, raw: entry.raw };
}
