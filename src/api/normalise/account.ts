import { type Account } from '../models';
import { readId } from './ids';
import { type FieldTrace, type Names, type Scope, find, findText, names, pathOf } from './read';
import { unexpectedBody } from './unreadable';
import { type Entry, unwrapObject } from './wrappers';
import { optional } from '../../util/serverText';

const ID_FIELDS = names('id account_id user_id customer_id client_id uuid');
/** A last resort for an id: unique per account. */
const LOGIN_FIELDS = names('username login user_name');
const NAME_FIELDS = names('name full_name fullname display_name');
const FIRST_NAMES = names('first_name firstname given_name');
const LAST_NAMES = names('last_name lastname family_name surname');
const LATER_NAME_FIELDS = names('company company_name username login');
const EMAIL_FIELDS = names('email email_address mail e_mail');
const WRAPPERS = names('data account user me client customer profile result response');
const OWN_FIELDS = names([...ID_FIELDS.list, ...EMAIL_FIELDS.list]);

/** `euuid` and the like. */
function uuidKeys(scope: Scope | undefined): Names {
  const keys: string[] = [];
  let scanned = 0;
  for (const key in scope?.obj) {
    if (++scanned > 64) break;
    if (key.toLowerCase().endsWith('uuid')) keys.push(key);
  }
  return names(keys);
}

/** Only shown, never sent: an unreadable one is left out rather than failing the account. */
function readAccountId(scopes: readonly Scope[], own: Entry['ownId'], trace?: FieldTrace): string | undefined {
  const hit = own ?? [ID_FIELDS, uuidKeys(scopes[0]), LOGIN_FIELDS].map((table) => find(scopes, table)).find(Boolean);
  try {
    const id = hit ? readId(hit.value, 'account') : undefined;
    if (hit && id !== undefined) trace?.use('id', 'path' in hit ? hit.path : pathOf(hit));
    return id;
  } catch {
    return undefined;
  }
}

function readName(scopes: readonly Scope[], trace?: FieldTrace): string | undefined {
  const own = findText(scopes, NAME_FIELDS);
  const first = own ? undefined : findText(scopes, FIRST_NAMES);
  const last = own ? undefined : findText(scopes, LAST_NAMES);
  const later = own || first || last ? undefined : findText(scopes, LATER_NAME_FIELDS);
  for (const found of [own, first, last, later]) if (found) trace?.use('name', pathOf(found.hit));
  return own?.text ?? ([first?.text, last?.text].filter(Boolean).join(' ') || later?.text);
}

export function normaliseAccount(body: unknown, trace?: FieldTrace): Account {
  const entry = unwrapObject(body, WRAPPERS, OWN_FIELDS);
  if (!entry) throw unexpectedBody('account', body);
  const { scopes } = entry;
  const email = findText(scopes, EMAIL_FIELDS);
  if (email) trace?.use('email', pathOf(email.hit));
  return {
    id: optional(readAccountId(scopes, entry.ownId, trace)),
    name: optional(readName(scopes, trace)),
    email: optional(email?.text),
    raw: entry.raw,
  };
}
