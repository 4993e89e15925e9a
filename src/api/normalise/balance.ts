import { type Balance } from '../models';
import { AMOUNT_SCALE, currencyCode, currencyField, fromMinor, readMoneyAt, readUnits } from './money';
import { type FieldMap, pointed } from './pointers';
import { type FieldTrace, bare, isObject, joinPath, lookup } from './read';
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

export function normaliseBalance(body: unknown, trace?: FieldTrace, map?: FieldMap): Balance {
  const amount = pointed(map, 'balanceAmount', body);
  if (amount && amount.value !== undefined) {
    const fields = unwrapObject(body, WRAPPERS, AMOUNT_FIELDS)?.fields;
    const code =
      currencyCode(bare(pointed(map, 'balanceCurrency', body)?.value)) ?? (fields && currencyField(fields)?.code);
    const units = readUnits(bare(amount.value));
    const read = map?.amountScale === 'minor' ? fromMinor(units, code) : units;
    if (read.problem === undefined) {
      const raw = isObject(body) || typeof body === 'number' || typeof body === 'string' ? body : {};
      return { amount: read.units / AMOUNT_SCALE, currency: read.currency ?? code, raw };
    }
  }
  const read = readBalance(body, trace);
  const currency = currencyCode(bare(pointed(map, 'balanceCurrency', body)?.value));
  if (map?.amountScale === 'minor') {
    const units = fromMinor({ units: Math.round(read.amount * AMOUNT_SCALE) }, currency ?? read.currency);
    if (units.problem === undefined) {
      return { ...read, amount: units.units / AMOUNT_SCALE, currency: currency ?? read.currency };
    }
  }
  return currency ? { ...read, currency } : read;
}

function readBalance(body: unknown, trace?: FieldTrace): Balance {
  if (typeof body === 'number' || typeof body === 'string') {
    const top = readUnits(body);
    if (top.problem === undefined) return { amount: top.units / AMOUNT_SCALE, currency: top.currency, raw: body };
  }
  const entry = unwrapObject(body, WRAPPERS, AMOUNT_FIELDS);
  if (!entry) throw unexpectedBody('balance', body);
  const currency = currencyField(entry.fields);
  for (const name of AMOUNT_FIELDS) {
    const hit = lookup(entry.fields, [name]);
    const read = hit ? readMoneyAt(entry.fields, hit.key, currency?.code) : undefined;
    if (!hit || read?.units === undefined) continue;
    trace?.use('amount', joinPath(entry.base, hit.key));
    if (!read.currency && currency) trace?.use('currency', joinPath(entry.base, currency.key));
    return { amount: read.units / AMOUNT_SCALE, currency: read.currency ?? currency?.code, raw: entry.raw };
  }
  throw unexpectedBody('balance', body);
}
