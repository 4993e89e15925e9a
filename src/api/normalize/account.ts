import { ApiError } from '../errors';
import { type Account } from '../models';
import { describe, isObject, textField, unwrapObject } from './read';

const ID_FIELDS = ['id', 'account_id', 'user_id', 'customer_id', 'client_id', 'uuid'];
const NAME_FIELDS = ['name', 'full_name', 'fullname', 'display_name', 'company', 'company_name', 'username', 'login'];
const EMAIL_FIELDS = ['email', 'email_address', 'mail', 'e_mail'];

export function normaliseAccount(body: unknown): Account {
  const obj = unwrapObject(body, ['data', 'account', 'user', 'me', 'client', 'customer', 'profile', 'result'],
    [...ID_FIELDS, ...EMAIL_FIELDS]);
  if (!obj || !isObject(obj)) throw new ApiError('badResponse', `Expected an account object, got ${describe(body)}.`);
  const first = textField(obj, ['first_name', 'firstname', 'given_name']);
  const last = textField(obj, ['last_name', 'lastname', 'family_name', 'surname']);
  const joined = [first, last].filter(Boolean).join(' ');
  return {
    id: textField(obj, ID_FIELDS),
    name: textField(obj, NAME_FIELDS) ?? (joined || undefined),
    email: textField(obj, EMAIL_FIELDS),
    raw: obj,
  };
}
