/**
 * Resource documents (JSON:API, Fractal/Pterodactyl): `{type, id, attributes, links, relationships}` carries its
 * fields under `attributes`. Reading them there, with the envelope's id, lets every reader stay shape-agnostic.
 */

import { type RawObject } from '../models';
import { isObject, joinPath } from './read';

/** One thing as the readers see it. */
export interface Entry {
  /** Where names, states, amounts… are read. */
  readonly fields: RawObject;
  /** A resource's own object: its top-level `id` wins over one inside `attributes`. */
  readonly envelope?: RawObject;
  /** Trace path of `fields`, e.g. `data[].attributes`. */
  readonly base: string;
  /** What the server sent for this thing, for "Show details". */
  readonly raw: RawObject;
}

/** Members a resource object may have besides `attributes` (JSON:API's list, plus Fractal's `object`). */
const ENVELOPE_KEYS = new Set(['type', 'id', 'lid', 'object', 'attributes', 'links', 'relationships', 'meta']);

export function isResource(obj: RawObject): boolean {
  if (!isObject(obj.attributes)) return false;
  if (typeof obj.type === 'string' || typeof obj.object === 'string') return true;
  let count = 0;
  for (const key in obj) {
    if (++count > ENVELOPE_KEYS.size || !ENVELOPE_KEYS.has(key)) return false;
  }
  return true;
}

export function openEntry(obj: RawObject, base: string): Entry {
  if (isResource(obj) && isObject(obj.attributes)) {
    return { fields: obj.attributes, envelope: obj, base: joinPath(base, 'attributes'), raw: obj };
  }
  return { fields: obj, base, raw: obj };
}
