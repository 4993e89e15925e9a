/**
 * Ids are what a Stop or Reinstall is sent to: a wrong one acts on ANOTHER server. So an id is used exactly as sent or
 * refused, never repaired.
 */

import { ApiError } from '../errors';
import { bare } from './read';

/** Longer than any id seen in the wild; a longer one is not an id, and it would make an unwieldy path. */
const MAX_ID_LENGTH = 256;

function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return true;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return true;
    }
  }
  return false;
}

/**
 * The id a value stands for: a string kept exactly (spaces included: `" 7"` trimmed would be order 7), a safe integer,
 * or the exact digits of a big integer (json.ts quotes integers beyond 2^53), or one of these written `{"$": …}`.
 * Anything else (null, a boolean, another object, a fraction, a rounded number) throws: the entry has no id we can
 * trust.
 */
export function readId(sent: unknown, what: string): string {
  // BILLmanager's `{"$": "801"}` is the id "801", held to the same rules; an object of any other shape is no id.
  const value = bare(sent);
  if (typeof value === 'string') {
    if (value === '') throw new ApiError('badResponse', `The ${what} id is empty.`);
    if (value.length > MAX_ID_LENGTH) {
      throw new ApiError('badResponse', `The ${what} id is longer than ${MAX_ID_LENGTH} characters.`);
    }
    if (hasLoneSurrogate(value)) {
      throw new ApiError('badResponse', `The ${what} id is not valid text (a lone surrogate).`);
    }
    return value;
  }
  if (typeof value === 'number') {
    // JSON.parse has already rounded an integer beyond 2^53: the digits left may name another order.
    if (Number.isSafeInteger(value)) return String(value);
    if (Number.isInteger(value)) throw new ApiError('badResponse', `The ${what} id is too large to be read exactly.`);
    throw new ApiError('badResponse', `The ${what} id is not a whole number.`);
  }
  if (typeof value === 'bigint') return value.toString();
  const kind =
    value === null || value === undefined
      ? String(value)
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? 'an object'
          : `a ${typeof value}`;
  throw new ApiError('badResponse', `The ${what} id is ${kind}, not a string or a whole number.`);
}
