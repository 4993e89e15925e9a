import { type RawObject } from '../models';
import { JSON_BOUNDS } from '../json';
import { readId } from './ids';
import { type FieldMap, resolvePointer } from './pointers';
import { type FieldTrace, type Names, Scope, find, isObject, joinPath, names, pathOf, prefixed, squash } from './read';
import { unexpectedBody } from './unreadable';

const MAX_DEPTH = 4;
const MAX_NODES = 64;
const MAX_SCANNED_KEYS = 64;
export const MAX_LIST_ENTRIES = JSON_BOUNDS.entries;

const CONTAINERS = names('attributes properties metadata spec status details info instance_view');
const MAX_SCOPES = 8;
/** A resource's own `type` or `meta` are not its fields. */
const RESOURCE_KEYS = new Set(['type', 'id', 'lid', 'object', 'attributes', 'links', 'relationships', 'meta']);

export interface Entry {
  readonly raw: RawObject;
  readonly scopes: readonly Scope[];
  readonly ownId?: { readonly value: unknown; readonly path: string };
}

function isResource(obj: RawObject): boolean {
  if (!isObject(obj.attributes)) return false;
  if (typeof obj.type === 'string' || typeof obj.object === 'string') return true;
  let count = 0;
  for (const key in obj) if (++count > RESOURCE_KEYS.size || !RESOURCE_KEYS.has(key)) return false;
  return true;
}

function openEntry(obj: RawObject, base: string): Entry {
  const resource = isResource(obj);
  const top = new Scope(obj, base);
  const scopes: Scope[] = resource ? [] : [top];
  const queue = [{ scope: top, depth: 0 }];
  for (let i = 0; i < queue.length; i++) {
    const { scope: outer, depth } = queue[i] as { scope: Scope; depth: number };
    for (const { key, value } of depth < 2 && !outer.stateOnly ? outer.hits(CONTAINERS) : []) {
      if (!isObject(value) || scopes.length >= MAX_SCOPES || scopes.some((s) => s.obj === value)) continue;
      const scope = new Scope(value, joinPath(outer.path, key), squash(key) === 'status');
      scopes.push(scope);
      queue.push({ scope, depth: depth + 1 });
    }
  }
  const ownId = resource && Object.hasOwn(obj, 'id') ? { value: obj.id, path: joinPath(base, 'id') } : undefined;
  return { raw: obj, scopes, ownId };
}

/**
 * The first id field PRESENT decides: a value that is no id refuses the entry (readId throws), never another field,
 * which may name another thing (`server_id` of one order is the `id` of the next).
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

const has = (obj: RawObject, fields: Names): boolean => find(openEntry(obj, '').scopes, fields) !== undefined;

/** Else it is a side array. */
function holdsRecords(list: readonly unknown[], ids: Names): boolean {
  return list.slice(0, 3).some((entry) => isObject(entry) && (isResource(entry) || has(entry, ids)));
}

/** `doc.elem`: BILLmanager. */
const LIST_KEYS =
  'data items results result response orders invoices servers services instances droplets records rows list ' +
  'content entries value values collection objects nodes doc elem';

export interface ListPage<T> {
  readonly items: T[];
  readonly ids: string[];
  readonly skipped: number;
  readonly omitted: number;
}

interface FoundList {
  readonly list: readonly unknown[];
  readonly path: string;
}

export interface ListKind {
  readonly expected: 'orderList' | 'invoiceList';
  readonly keys: readonly string[];
  readonly idFields: Names;
}

export function locateList(body: unknown, kind: ListKind, map?: FieldMap): FoundList | undefined {
  const pointer = map?.pointers[kind.expected];
  if (pointer === undefined) return findList(body, kind.keys, kind.idFields);
  const list = resolvePointer(body, pointer);
  return Array.isArray(list) ? { list, path: pointer } : undefined;
}

export function readList<T>(
  body: unknown,
  kind: ListKind,
  read: (entry: unknown, trace?: FieldTrace) => T,
  map?: FieldMap,
  trace?: FieldTrace,
  limit: number = MAX_LIST_ENTRIES,
): ListPage<T> {
  const found = locateList(body, kind, map);
  if (!found) throw unexpectedBody(kind.expected, body);
  trace?.use('list', found.path || '[]');
  const kept = found.list.slice(0, Math.max(0, limit));
  const entryTrace = trace && prefixed(trace, `${found.path}[]`);
  const idList = !kept.some(isObject);
  const items: T[] = [];
  const ids: string[] = [];
  let skipped = 0;
  // The log needs one example: the first readable entry of the first three.
  let tracing = trace ? 3 : 0;
  for (const entry of kept) {
    try {
      if (idList && (typeof entry === 'string' || typeof entry === 'number')) {
        ids.push(readId(entry, kind.expected === 'orderList' ? 'order' : 'invoice'));
      } else {
        items.push(read(entry, tracing > 0 ? entryTrace : undefined));
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
 * Records under a known key (shallowest first), then any array under one (an empty list is still the list), then
 * records under another key (or `{servers:{server:[…]}}`), then the top level's only array.
 */
export function findList(body: unknown, preferred: readonly string[], idFields: Names): FoundList | undefined {
  if (Array.isArray(body)) return { list: body as unknown[], path: '' };
  if (!isObject(body)) return undefined;
  const keys = names([...preferred, ...LIST_KEYS.split(' ')]);
  let knownArray: FoundList | undefined;
  let otherRecords: FoundList | undefined;
  const queue = [{ scope: new Scope(body, ''), depth: 0 }];
  for (let i = 0; i < queue.length && i < MAX_NODES; i++) {
    const { scope, depth } = queue[i] as { scope: Scope; depth: number };
    for (const hit of scope.hits(keys)) {
      const list = hit.value as unknown[];
      if (Array.isArray(list) && holdsRecords(list, idFields)) return { list, path: pathOf(hit) };
      if (Array.isArray(list)) knownArray ??= { list, path: pathOf(hit) };
      const seen = queue.some((q) => q.scope.obj === hit.value);
      if (!isObject(hit.value) || depth >= MAX_DEPTH || seen) continue;
      queue.push({ scope: new Scope(hit.value, pathOf(hit)), depth: depth + 1 });
    }
    let scanned = 0;
    for (const key in otherRecords ? {} : scope.obj) {
      if (++scanned > MAX_SCANNED_KEYS) break;
      const value = scope.obj[key];
      const inner = isObject(value) && key.endsWith('s') ? value[key.slice(0, -1)] : undefined;
      const list = (Array.isArray(value) ? value : inner) as unknown[] | undefined;
      const at = joinPath(scope.path, key);
      if (Array.isArray(list) && holdsRecords(list, idFields)) {
        otherRecords = { list, path: list === value ? at : joinPath(at, key.slice(0, -1)) };
        break;
      }
    }
  }
  const arrays = Object.entries(body).filter(([, value]) => Array.isArray(value));
  const only = arrays.length === 1 ? { list: arrays[0]?.[1] as unknown[], path: arrays[0]?.[0] ?? '' } : undefined;
  return knownArray ?? otherRecords ?? only;
}

/** APIs whose `data` is always an array send one object as an array of one. */
function single(value: unknown): RawObject | undefined {
  if (isObject(value)) return value;
  return Array.isArray(value) && value.length === 1 && isObject(value[0]) ? value[0] : undefined;
}

/** JSend's `status: "success"` too. */
const ENVELOPE_SCALARS = new Set(
  'result success message code ok error requestid version apiversion object timestamp currency'.split(' '),
);
const ENVELOPE_STATUS = new Set(['success', 'ok', 'fail', 'error']);

/** Only an envelope is looked into: an order with no id but `server: {id: 99}` must not become order 99. */
function isEnvelope(obj: RawObject): boolean {
  let scanned = 0;
  for (const key in obj) {
    const value = obj[key];
    if (++scanned > MAX_SCANNED_KEYS) return false;
    if (typeof value === 'object' || value === undefined) continue;
    const name = squash(key);
    if (name === 'status' && typeof value === 'string' && ENVELOPE_STATUS.has(value.toLowerCase())) continue;
    if (!ENVELOPE_SCALARS.has(name)) return false;
  }
  return true;
}

/** An object with one of `ownFields` is the thing itself: an order's nested `server: {…}` is no wrapper. */
export function unwrapObject(body: unknown, wrappers: Names, ownFields: Names): Entry | undefined {
  let obj = single(body);
  let path = '';
  for (let depth = 0; obj && depth < MAX_DEPTH; depth++) {
    if (isResource(obj) || !isEnvelope(obj) || has(obj, ownFields)) break;
    const scope = new Scope(obj, '');
    const wrapped = scope.hits(wrappers).find((hit) => single(hit.value));
    const children = wrapped ? [] : Object.entries(obj).slice(0, MAX_SCANNED_KEYS);
    const owners = children.filter(([, v]) => isObject(v) && (isResource(v) || has(v, ownFields)));
    const next = wrapped ? ([wrapped.key, wrapped.value] as const) : owners.length === 1 ? owners[0] : undefined;
    const item = next && single(next[1]);
    if (!next || !item) break;
    obj = item;
    path = joinPath(path, next[0]);
  }
  return obj && openEntry(obj, path);
}
