import { type Balance } from '../models';
import { AMOUNT_SCALE, currencyCode, currencyField, findMoney, readMoneyAt } from './money';
import { type FieldMap, pointed } from './pointers';
import { type FieldTrace, Scope, bare, isObject, names, pathOf } from './read';
import { unexpectedBody } from './unreadable';
import { unwrapObject } from './wrappers';

/** What the account can spend, then what it holds. */
const AMOUNT_FIELDS = names(
  'balance credit_balance account_balance available_balance current_balance balance_cents balance_minor amount ' +
    'amount_cents amount_minor value credit credits available funds current total money cents minor_units',
);
const WRAPPERS = names('data result response account wallet billing client customer user me');

export function normaliseBalance(body: unknown, trace?: FieldTrace, map?: FieldMap): Balance {
  const minor = map?.amountScale === 'minor';
  if (typeof body === 'number' || typeof body === 'string') {
    const top = readMoneyAt({ value: body }, 'value', undefined, minor);
    if (top.problem === undefined) return { amount: top.units / AMOUNT_SCALE, currency: top.currency, raw: body };
  }
  const entry = unwrapObject(body, WRAPPERS, AMOUNT_FIELDS);
  const mappedCurrency = currencyCode(bare(pointed(map, 'balanceCurrency', body)?.value));
  const root = isObject(body) ? [new Scope(body, '')] : [];
  const currency = mappedCurrency
    ? { code: mappedCurrency, path: 'map' }
    : (currencyField(entry?.scopes ?? []) ?? currencyField(root));
  const mapped = pointed(map, 'balanceAmount', body)?.value;
  const raw = entry?.raw ?? (typeof mapped === 'number' ? mapped : undefined);
  if (raw === undefined) throw unexpectedBody('balance', body);
  const money = findMoney(entry?.scopes ?? [], AMOUNT_FIELDS, mapped, currency?.code, minor);
  if (!money) throw unexpectedBody('balance', body);
  trace?.use('amount', pathOf(money.hit));
  if (!money.currency && currency) trace?.use('currency', currency.path);
  return { amount: money.units / AMOUNT_SCALE, currency: money.currency ?? currency?.code, raw };
}
