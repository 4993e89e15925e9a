/**
 * Finding the payload inside envelopes (`{data:[…]}`, `{result:{servers:[…]}}`, `{servers:{server:[…]}}`, one item
 * as `{data:[{…}]}`), and an entry's own fields in the containers APIs keep them in. Every search is breadth-first
 * over a bounded number of levels and nodes, and never visits a subtree twice.
 */

import { type RawObject } from '../models';
import { JSON_BOUNDS } from '../json';
import { readId } from './ids';
import { type FieldMap, pointed } from './pointers';
import {
  type FieldTrace,
  type Names,
  Scope,
  find,
  isObject,
  joinPath,
  lookup,
  names,
  pathOf,
  prefixed,
  squash,
  words,
} from './read';
import { unexpectedBody } from './unreadable';

const MAX_DEPTH = 4;
const MAX_NODES = 64;
/** Keys looked at when no known wrapper key matched; the rest of a wide object is not read. */
const MAX_SCANNED_KEYS = 64;
/** Entries checked to decide whether an array holds records. */
const SAMPLE = 3;

/**
 * Where APIs keep an entry's own fields besides the entry itself, in order: JSON:API and Fractal `attributes`, Azure
 * `properties`, Kubernetes-style `metadata`/`spec`/`status`, and the plainer `details` and `info`. A `status` object
 * is read for the state only (a `status` text is a state word).
 */
const CONTAINERS = names('attributes properties metadata spec status details info instance_view');
/** Containers of containers are read too (`properties.instanceView`), up to this many scopes in all. */
const MAX_SCOPES = 8;

/** One thing as the readers see it: the object, its containers, and (JSON:API) the document's own id. */
export interface Entry {
  readonly raw: RawObject;
  readonly scopes: readonly Scope[];
  /** A resource document's own id: it wins over one inside `attributes`. */
  readonly ownId?: { readonly key: string; readonly value: unknown; readonly path: string };
}

/** Members a resource object may have besides `attributes` (JSON:API's list, plus Fractal's `object`). */
const ENVELOPE_KEYS = new Set(words('type id lid object attributes links relationships meta'));

/** `{type, id, attributes, links, relationships}`: its fields are under `attributes`, never its own `type`. */
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
  const resource = isResource(obj);
  const queue = [{ scope: new Scope(obj, base), depth: 0 }];
  const scopes: Scope[] = resource ? [] : [(queue[0] as { scope: Scope }).scope];
  for (let i = 0; i < queue.length && scopes.length < MAX_SCOPES; i++) {
    const { scope: outer, depth } = queue[i] as { scope: Scope; depth: number };
    if (depth >= 2 || outer.stateOnly) continue;
    for (let c = 0; c < CONTAINERS.list.length && scopes.length < MAX_SCOPES; c++) {
      const key = outer.keyOf(CONTAINERS.list[c] as string, CONTAINERS.squashed[c] as string);
      const inner = key === undefined ? undefined : outer.obj[key];
      if (key === undefined || !isObject(inner) || scopes.some((s) => s.obj === inner)) continue;
      const scope = new Scope(inner, joinPath(outer.path, key), squash(key) === 'status');
      scopes.push(scope);
      queue.push({ scope, depth: depth + 1 });
    }
  }
  if (!resource || !Object.hasOwn(obj, 'id')) return { raw: obj, scopes };
  return { raw: obj, scopes, ownId: { key: 'id', value: obj.id, path: joinPath(base, 'id') } };
}

function hasAny(obj: RawObject, fields: Names): boolean {
  return find([new Scope(obj, '')], fields) !== undefined;
}

/** An array whose first entries are id-bearing objects (or resources) is the list itself, not a side array. */
function holdsRecords(list: readonly unknown[], idFields: Names): boolean {
  for (let i = 0; i < list.length && i < SAMPLE; i++) {
    const entry = list[i];
    if (isObject(entry) && (isResource(entry) || find(openEntry(entry, '').scopes, idFields))) return true;
  }
  return false;
}

/** XML-style double wrapping: `{servers:{server:[…]}}`, `{products:{product:[…]}}`. */
function singularArray(key: string, value: RawObject): unknown[] | undefined {
  const inner = key.endsWith('s') ? value[key.slice(0, -1)] : undefined;
  return Array.isArray(inner) ? (inner as unknown[]) : undefined;
}

/** Keys under which list endpoints commonly wrap their array, in order of preference (`doc.elem`: BILLmanager). */
const LIST_KEYS = words(
  'data items results result response orders invoices servers services instances droplets records rows list ' +
    'content entries value values collection objects nodes doc elem',
);

export const MAX_LIST_ENTRIES = JSON_BOUNDS.entries;

/** A page of a list as read: entries that were bare ids (read one by one elsewhere), and `omitted` past the limit. */
export interface ListPage<T> {
  readonly items: T[];
  readonly ids: string[];
  readonly skipped: number;
  readonly omitted: number;
}

export interface FoundList {
  readonly list: readonly unknown[];
  /** Trace path of the array, e.g. `result.servers`; empty for a bare array. */
  readonly path: string;
}

/**
 * A list answer read entry by entry, at most `limit` of them: an object through `read`, a bare string or number as an
 * id (held to the id rules); an entry that cannot be read is counted as skipped, never fatal.
 */
export function readList<T>(
  body: unknown,
  how: {
    readonly preferred: readonly string[];
    readonly idFields: Names;
    readonly expected: 'orderList' | 'invoiceList';
    readonly read: (entry: unknown, trace?: FieldTrace) => T;
    readonly map?: FieldMap;
  },
  trace?: FieldTrace,
  limit: number = MAX_LIST_ENTRIES,
): ListPage<T> {
  const mapped = pointed(how.map, how.expected, body);
  const found: FoundList | undefined = mapped
    ? Array.isArray(mapped.value)
      ? { list: mapped.value as unknown[], path: how.map?.pointers[how.expected] ?? '' }
      : undefined
    : findList(body, how.preferred, how.idFields);
  if (!found) throw unexpectedBody(how.expected, body);
  trace?.use('list', found.path || '[]');
  const kept = found.list.length > limit ? found.list.slice(0, Math.max(0, limit)) : found.list;
  const entryTrace = trace && prefixed(trace, `${found.path}[]`);
  const what = how.expected === 'orderList' ? 'order' : 'invoice';
  const items: T[] = [];
  const ids: string[] = [];
  let skipped = 0;
  // Only the first readable entry is traced (trying at most three): the log needs one example.
  let tracing = trace ? 3 : 0;
  // A list of ids holds nothing else; a bare value among records is junk, not an id.
  const idList = !kept.some(isObject);
  for (const entry of kept) {
    try {
      if (!idList || !(typeof entry === 'string' || typeof entry === 'number')) {
        items.push(how.read(entry, tracing > 0 ? entryTrace : undefined));
      } else {
        ids.push(readId(entry, what));
        if (tracing > 0) entryTrace?.use('id', '');
      }
      tracing = 0;
    } catch {
      skipped++;
      tracing--;
    }
  }
  return { items, ids, skipped, omitted: found.list.length - kept.length };
}

/**
 * The array in a list answer: an array of records under a known key (shallowest first), then any array under a known
 * key (an empty list is still the list), then an array of records under another key, then the top level's only array.
 */
export function findList(
  body: unknown,
  preferred: readonly string[],
  idFields: Names | readonly string[],
): FoundList | undefined {
  const ids = 'squashed' in idFields ? idFields : names(idFields);
  if (Array.isArray(body)) return { list: body as unknown[], path: '' };
  if (!isObject(body)) return undefined;
  const keys = [...preferred, ...LIST_KEYS];
  let knownArray: FoundList | undefined;
  let otherRecords: FoundList | undefined;
  const queue: Array<{ obj: RawObject; path: string; depth: number }> = [{ obj: body, path: '', depth: 0 }];
  const seen = new Set<RawObject>([body]);
  for (let i = 0; i < queue.length && i < MAX_NODES; i++) {
    const { obj, path, depth } = queue[i] as { obj: RawObject; path: string; depth: number };
    for (const name of keys) {
      const hit = lookup(obj, [name]);
      if (!hit) continue;
      const at = joinPath(path, hit.key);
      if (Array.isArray(hit.value)) {
        if (holdsRecords(hit.value as unknown[], ids)) return { list: hit.value as unknown[], path: at };
        knownArray ??= { list: hit.value as unknown[], path: at };
      } else if (isObject(hit.value) && depth < MAX_DEPTH && !seen.has(hit.value)) {
        seen.add(hit.value);
        queue.push({ obj: hit.value, path: at, depth: depth + 1 });
      }
    }
    let scanned = 0;
    for (const key in otherRecords ? {} : obj) {
      if (++scanned > MAX_SCANNED_KEYS) break;
      const value = obj[key];
      const list = Array.isArray(value)
        ? (value as unknown[])
        : isObject(value)
          ? singularArray(key, value)
          : undefined;
      if (list && holdsRecords(list, ids)) {
        const at = joinPath(path, key);
        otherRecords = { list, path: Array.isArray(value) ? at : joinPath(at, key.slice(0, -1)) };
        break;
      }
    }
  }
  return knownArray ?? otherRecords ?? onlyArray(body);
}

function onlyArray(body: RawObject): FoundList | undefined {
  let found: FoundList | undefined;
  for (const key in body) {
    const value = body[key];
    if (!Array.isArray(value)) continue;
    if (found) return undefined;
    found = { list: value as unknown[], path: key };
  }
  return found;
}

/** One item of a wrapper that is always an array (`{"data": [{…}]}`): an array of one object is that object. */
function single(value: unknown): RawObject | undefined {
  if (isObject(value)) return value;
  return Array.isArray(value) && value.length === 1 && isObject(value[0]) ? value[0] : undefined;
}

/**
 * A single object sent as `{data:{…}}`, `{data:[{…}]}`, `{order:{…}}`, `{result:{server:{…}}}` or a resource
 * document. An object that has one of `ownFields` is the thing itself, so a nested `server: {…}` field of an order is
 * not mistaken for a wrapper. With no known wrapper, the one child object that has `ownFields` is taken.
 */
export function unwrapObject(body: unknown, wrappers: Names, ownFields: Names): Entry | undefined {
  const top = single(body);
  if (!top) return undefined;
  let obj: RawObject = top;
  let path = '';
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (isResource(obj) || !isEnvelope(obj) || hasAny(obj, ownFields)) break;
    const next = wrapperChild(obj, wrappers) ?? soleChildWith(obj, ownFields);
    if (!next) break;
    obj = next.value;
    path = joinPath(path, next.key);
  }
  return openEntry(obj, path);
}

/** Scalars an envelope carries beside its payload. */
const ENVELOPE_SCALARS = new Set(
  words('result success message code ok error requestid version apiversion object timestamp currency'),
);
const ENVELOPE_STATUS = new Set(words('success ok fail error'));

/**
 * Only an envelope is looked into: an order without an id but with a name and `server: {id: 99}` must not become
 * order 99. An envelope's scalars are bookkeeping (`result: "success"`, JSend's `status: "success"`), never data.
 */
function isEnvelope(obj: RawObject): boolean {
  let scanned = 0;
  for (const key in obj) {
    if (++scanned > MAX_SCANNED_KEYS) return false;
    const value = obj[key];
    if (typeof value === 'object' || value === undefined) continue;
    const name = squash(key);
    if (name === 'status' && typeof value === 'string' && ENVELOPE_STATUS.has(value.toLowerCase())) continue;
    if (!ENVELOPE_SCALARS.has(name)) return false;
  }
  return true;
}

function wrapperChild(obj: RawObject, wrappers: Names): { key: string; value: RawObject } | undefined {
  const scope = new Scope(obj, '');
  for (let i = 0; i < wrappers.list.length; i++) {
    const key = scope.keyOf(wrappers.list[i] as string, wrappers.squashed[i] as string);
    const value = key === undefined ? undefined : single(obj[key]);
    if (key !== undefined && value) return { key, value };
  }
  return undefined;
}

function soleChildWith(obj: RawObject, ownFields: Names): { key: string; value: RawObject } | undefined {
  let found: { key: string; value: RawObject } | undefined;
  let scanned = 0;
  for (const key in obj) {
    if (++scanned > MAX_SCANNED_KEYS) return undefined;
    const value = obj[key];
    if (!isObject(value) || !(isResource(value) || hasAny(value, ownFields))) continue;
    if (found) return undefined;
    found = { key, value };
  }
  return found;
}

/**
 * The first id field PRESENT decides, whatever it holds: a value that is no id refuses the entry (readId throws)
 * rather than falling back to another field, which may name another thing (`server_id` of one order is the `id` of
 * the next). A resource document's own `id` comes first.
 */
export function entryId(
  entry: Entry,
  table: Names,
  what: string,
): { id: string; path: string; key?: string } | undefined {
  if (entry.ownId) return { id: readId(entry.ownId.value, what), path: entry.ownId.path };
  const hit = find(entry.scopes, table, { present: true });
  return hit && { id: readId(hit.value, what), path: pathOf(hit), key: hit.key };
}
