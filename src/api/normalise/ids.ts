/** A wrong id acts on ANOTHER server: an id is exact or refused. */

import { ApiError } from '../errors';
import { bare } from './read';

const MAX_ID_LENGTH = 256;

function refused(what: string, why: string): ApiError {
  return new ApiError('badResponse', `The ${what} id ${why}.`);
}

/** Text kept exactly (`" 7"` trimmed would be order 7). */
export function readId(sent: unknown, what: string): string {
  const value = bare(sent);
  if (typeof value === 'string') {
    if (value === '') throw refused(what, 'is empty');
    if (value.length > MAX_ID_LENGTH) throw refused(what, `is longer than ${MAX_ID_LENGTH} characters`);
    if (/\p{Cs}/u.test(value)) throw refused(what, 'is not valid text (a lone surrogate)');
    return value;
  }
  if (typeof value === 'number') {
    // JSON.parse has already rounded an integer beyond 2^53: the digits left may name another order.
    if (Number.isSafeInteger(value)) return String(value);
    throw refused(what, Number.isInteger(value) ? 'is too large to be read exactly' : 'is not a whole number');
  }
  if (typeof value === 'bigint') return value.toString();
  const kind = Array.isArray(value) ? 'an array' : typeof value === 'object' && value ? 'an object' : String(value);
  throw refused(what, `is ${kind === 'true' || kind === 'false' ? 'a boolean' : kind}, not a string or a whole number`);
}
