/**
 * Finding the payload inside envelopes: `{data:[…]}`, `{result:{servers:[…]}}`, `{servers:{server:[…]}}`,
 * `{data:{type,id,attributes}}`. Every search is breadth-first over a bounded number of wrapper levels and nodes, and
 * never visits a subtree twice: a hostile nesting costs at most those bounds, not time doubling per level.
 */

import { type RawObject } from '../models';
import { JSON_BOUNDS } from '../json';
import { type FieldTrace, has, isObject, joinPath, lookup, prefixed, readEach, squash } from './read';
import { type Entry, isResource, openEntry } from './resource';
import { unexpectedBody } from './unreadable';
import { type FieldMap, pointed } from './pointers';

/** Wrapper levels searched: real APIs use two at most (`result.servers`, `servers.server`, `data.items`). */
const MAX_DEPTH = 4;
/** Objects looked into per search. */
const MAX_NODES = 64;
/** Keys looked at when no known wrapper key matched; the rest of a wide object is not read. */
const MAX_SCANNED_KEYS = 64;
/** Entries checked to decide whether an array holds records. */
const SAMPLE = 3;

/** Keys under which list endpoints commonly wrap their array, in order of preference. */
const LIST_KEYS = [
  'data',
  'items',
  'results',
  'result',
  'response',
  'orders',
  'invoices',
  'servers',
  'services',
  'instances',
  'droplets',
  'records',
  'rows',
  'list',
  'content',
  'entries',
  'value',
  'values',
  'collection',
  'objects',
  'nodes',
  // ISPsystem's BILLmanager: `{"doc": {"elem": […]}}`.
  'doc',
  'elem',
];

export interface FoundList {
  readonly list: readonly unknown[];
  /** Trace path of the array, e.g. `result.servers`; empty for a bare array. */
  readonly path: string;
}

function hasAny(obj: RawObject, names: readonly string[]): boolean {
  return has(obj, names);
}

/** An array whose first entries are id-bearing objects (or resources) is the list itself, not a side array. */
function holdsRecords(list: readonly unknown[], idFields: readonly string[]): boolean {
  for (let i = 0; i < list.length && i < SAMPLE; i++) {
    const entry = list[i];
    if (isObject(entry) && (isResource(entry) || hasAny(entry, idFields))) return true;
  }
  return false;
}

/** XML-style double wrapping: `{servers:{server:[…]}}`, `{products:{product:[…]}}`. */
function singularArray(key: string, value: RawObject): unknown[] | undefined {
  if (!key.endsWith('s')) return undefined;
  const inner = value[key.slice(0, -1)];
  return Array.isArray(inner) ? (inner as unknown[]) : undefined;
}

/** Entries of a list read over all its pages: as many as one page may hold. */
export const MAX_LIST_ENTRIES = JSON_BOUNDS.entries;

/** A page of a list as read: `omitted` entries were past the limit. */
export interface ListPage<T> {
  readonly items: T[];
  readonly skipped: number;
  readonly omitted: number;
}

/**
 * A list response read entry by entry: the list found (see `findList`), then at most `limit` entries read; an entry
 * that cannot be read is counted as skipped, never fatal.
 */
export function readList<T>(
  body: unknown,
  preferred: readonly string[],
  idFields: readonly string[],
  expected: 'orderList' | 'invoiceList',
  read: (entry: unknown, trace?: FieldTrace) => T,
  trace?: FieldTrace,
  limit: number = MAX_LIST_ENTRIES,
  map?: FieldMap,
): ListPage<T> {
  const mapped = pointed(map, expected, body);
  const found = mapped
    ? Array.isArray(mapped.value)
      ? { list: mapped.value as unknown[], path: map?.pointers[expected] ?? '' }
      : undefined
    : findList(body, preferred, idFields);
  if (!found) throw unexpectedBody(expected, body);
  trace?.use('list', found.path || '[]');
  const { list } = found;
  const kept = list.length > limit ? list.slice(0, Math.max(0, limit)) : list;
  const { items, skipped } = readEach(kept, read, trace && prefixed(trace, `${found.path}[]`));
  return { items, skipped, omitted: list.length - kept.length };
}

/**
 * The array in a list response. Preference: an array of records under a known key (shallowest first), then any array
 * under a known key (an empty list is still the list), then an array of records under another key, then the only
 * array of the top level.
 */
export function findList(
  body: unknown,
  preferred: readonly string[],
  idFields: readonly string[],
): FoundList | undefined {
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
        if (holdsRecords(hit.value as unknown[], idFields)) return { list: hit.value as unknown[], path: at };
        knownArray ??= { list: hit.value as unknown[], path: at };
      } else if (isObject(hit.value) && depth < MAX_DEPTH && !seen.has(hit.value)) {
        seen.add(hit.value);
        queue.push({ obj: hit.value, path: at, depth: depth + 1 });
      }
    }
    if (otherRecords) continue;
    let scanned = 0;
    for (const key in obj) {
      if (++scanned > MAX_SCANNED_KEYS) break;
      const value = obj[key];
      const list = Array.isArray(value)
        ? (value as unknown[])
        : isObject(value)
          ? singularArray(key, value)
          : undefined;
      if (list && holdsRecords(list, idFields)) {
        otherRecords = {
          list,
          path: Array.isArray(value) ? joinPath(path, key) : joinPath(joinPath(path, key), key.slice(0, -1)),
        };
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

/**
 * Unwraps a single object sent as `{data:{…}}`, `{order:{…}}`, `{result:{server:{…}}}` or a resource document. An
 * object that already has one of `ownFields` is the thing itself, so a nested `server: {...}` field of an order is not
 * mistaken for a wrapper. With no known wrapper, the one child object that has `ownFields` is taken.
 */
export function unwrapObject(
  body: unknown,
  wrappers: readonly string[],
  ownFields: readonly string[],
): Entry | undefined {
  if (!isObject(body)) return undefined;
  let obj: RawObject = body;
  let path = '';
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    // All three are tests without side effects; the cheapest that usually decides (an order's first scalar) goes first.
    if (isResource(obj) || !isEnvelope(obj) || hasAny(obj, ownFields)) break;
    const next = wrapperChild(obj, wrappers) ?? soleChildWith(obj, ownFields);
    if (!next) break;
    obj = next.value;
    path = joinPath(path, next.key);
  }
  return openEntry(obj, path);
}

/** Scalars an envelope carries beside its payload. */
const ENVELOPE_SCALARS = new Set([
  'result',
  'success',
  'message',
  'code',
  'ok',
  'error',
  'requestid',
  'version',
  'apiversion',
  'object',
  'timestamp',
  'currency',
]);
const ENVELOPE_STATUS = new Set(['success', 'ok', 'fail', 'error']);

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

function wrapperChild(obj: RawObject, wrappers: readonly string[]): { key: string; value: RawObject } | undefined {
  for (const name of wrappers) {
    const hit = lookup(obj, [name]);
    if (hit && isObject(hit.value)) return { key: hit.key, value: hit.value };
  }
  return undefined;
}

function soleChildWith(obj: RawObject, ownFields: readonly string[]): { key: string; value: RawObject } | undefined {
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
