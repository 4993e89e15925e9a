import { type Balance } from '../models';
import { AMOUNT_SCALE, currencyCode, currencyField, readMoneyAt } from './money';
import { type FieldMap, pointed } from './pointers';
import { type FieldTrace, Scope, bare, find, isObject, names, pathOf } from './read';
import { unexpectedBody } from './unreadable';
import { unwrapObject } from './wrappers';

/** In order of preference: what the account can spend, then what it holds. Minor units where the name says so. */
const AMOUNT_FIELDS = names(
  'balance credit_balance account_balance available_balance current_balance balance_cents balance_minor amount ' +
    'amount_cents amount_minor value credit credits available funds current total money cents minor_units',
);
const WRAPPERS = names('data result response account wallet billing client customer user me');

/** The balance: a number or money text alone, or an object's amount field (or the one a field map points at). */
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
  const mapped = pointed(map, 'balanceAmount', body);
  const scopes = mapped?.value !== undefined ? [new Scope({ value: mapped.value }, 'map')] : entry?.scopes;
  const raw = entry?.raw ?? (typeof mapped?.value === 'number' ? mapped.value : undefined);
  if (!scopes || raw === undefined) throw unexpectedBody('balance', body);
  let read: ReturnType<typeof readMoneyAt> | undefined;
  const hit = find(scopes, mapped?.value !== undefined ? names('value') : AMOUNT_FIELDS, {
    accept: (_, key, scope) => (read = readMoneyAt(scope.obj, key, currency?.code, minor)).units !== undefined,
  });
  if (!hit || read?.units === undefined) throw unexpectedBody('balance', body);
  trace?.use('amount', pathOf(hit));
  if (!read.currency && currency) trace?.use('currency', currency.path);
  return { amount: read.units / AMOUNT_SCALE, currency: read.currency ?? currency?.code, raw };
}
