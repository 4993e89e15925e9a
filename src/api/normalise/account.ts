import { type Account } from '../models';
import { readId } from './ids';
import { type FieldTrace, joinPath, lookup, textHit } from './read';
import { unexpectedBody } from './unreadable';
import { type Entry } from './resource';
import { unwrapObject } from './wrappers';
import { optional } from '../../util/serverText';

const ID_FIELDS = ['id', 'account_id', 'user_id', 'customer_id', 'client_id', 'uuid'];
/** Last resorts for an id: a key ending in `uuid` (`euuid`), then the login name, which is unique per account. */
const LOGIN_FIELDS = ['username', 'login', 'user_name'];
const NAME_FIELDS = ['name', 'full_name', 'fullname', 'display_name'];
/** After the person's own name: a company or login name is what is left to greet them by. */
const LATER_NAME_FIELDS = ['company', 'company_name', 'username', 'login'];
const EMAIL_FIELDS = ['email', 'email_address', 'mail', 'e_mail'];
const WRAPPERS = ['data', 'account', 'user', 'me', 'client', 'customer', 'profile', 'result', 'response'];

/** The account id is only shown, never sent: an unreadable one is left out rather than failing the account. */
function readAccountId(entry: Entry, trace?: FieldTrace): string | undefined {
  const names = [...ID_FIELDS, ...suffixKeys(entry), ...LOGIN_FIELDS];
  for (const [source, candidates] of [
    [entry.envelope, ['id']],
    [entry.fields, names],
  ] as const) {
    for (const name of source ? candidates : []) {
      const hit = source && lookup(source, [name]);
      let id: string | undefined;
      try {
        id = hit ? readId(hit.value, 'account') : undefined;
      } catch {
        return undefined;
      }
      if (hit && id !== undefined) {
        trace?.use('id', source === entry.envelope ? hit.key : joinPath(entry.base, hit.key));
        return id;
      }
    }
  }
  return undefined;
}

function suffixKeys(entry: Entry): string[] {
  const keys: string[] = [];
  let scanned = 0;
  for (const key in entry.fields) {
    if (++scanned > 64) break;
    if (key.toLowerCase().endsWith('uuid')) keys.push(key);
  }
  return keys;
}

function readName(entry: Entry, trace?: FieldTrace): string | undefined {
  const own = textHit(entry.fields, NAME_FIELDS);
  const first = own ? undefined : textHit(entry.fields, ['first_name', 'firstname', 'given_name']);
  const last = own ? undefined : textHit(entry.fields, ['last_name', 'lastname', 'family_name', 'surname']);
  const later = own || first || last ? undefined : textHit(entry.fields, LATER_NAME_FIELDS);
  for (const hit of [own, first, last, later]) if (hit) trace?.use('name', joinPath(entry.base, hit.key));
  return own?.text ?? ([first?.text, last?.text].filter(Boolean).join(' ') || later?.text);
}

export function normaliseAccount(body: unknown, trace?: FieldTrace): Account {
  const entry = unwrapObject(body, WRAPPERS, [...ID_FIELDS, ...EMAIL_FIELDS]);
  if (!entry) throw unexpectedBody('account', body);
  const email = textHit(entry.fields, EMAIL_FIELDS);
  if (email) trace?.use('email', joinPath(entry.base, email.key));
  return {
    id: optional(readAccountId(entry, trace)),
    name: optional(readName(entry, trace)),
    email: optional(email?.text),
    raw: entry.raw,
  };
}
