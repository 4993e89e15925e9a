/**
 * Ids are what a Stop or Reinstall is sent to: a wrong one acts on ANOTHER server. So an id is used exactly as sent or
 * refused, never repaired.
 */

import { ApiError } from '../errors';
import { type RawObject } from '../models';
import { type Hit, lookup } from './read';

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
 * The id a value stands for, or undefined when it is not the kind of value ids are (objects, booleans). Strings are
 * kept exactly, spaces included: `" 7"` trimmed would be order 7. Throws when the value is an id that cannot be
 * trusted.
 */
export function readId(value: unknown, what: string): string | undefined {
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
    if (Number.isSafeInteger(value) || (Number.isFinite(value) && !Number.isInteger(value))) return String(value);
    throw new ApiError('badResponse', `The ${what} id is too large to be read exactly.`);
  }
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

/**
 * The first id field present decides: a bad value there refuses the entry rather than falling back to another field,
 * which may name something else. `preferred` (a resource document's own id) is looked at first.
 */
export function findId(
  obj: RawObject,
  names: readonly string[],
  what: string,
  preferred?: RawObject,
): { id: string; hit: Hit; own: boolean } | undefined {
  const candidates: Array<[RawObject, boolean]> = preferred
    ? [
        [preferred, true],
        [obj, false],
      ]
    : [[obj, false]];
  for (const [source, own] of candidates) {
    for (const name of own ? ['id'] : names) {
      const hit = lookup(source, [name]);
      if (!hit) continue;
      const id = readId(hit.value, what);
      if (id !== undefined) return { id, hit, own };
    }
  }
  return undefined;
}
