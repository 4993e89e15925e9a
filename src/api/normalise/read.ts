/** Small readers for JSON of unknown shape. Nothing here throws, and nothing here recurses into server data. */

import { type RawObject } from '../models';

/** Told which field each value came from, so a user can report what their server sends. */
export interface FieldTrace {
  use(role: string, path: string): void;
}

export function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value and the server's own name for the field it sat in. */
export interface Hit {
  readonly key: string;
  readonly value: unknown;
}

/** Looks a field up by several names, case-insensitively and ignoring `_`/`-`, so `power_status` = `powerStatus`. */
export function lookup(obj: RawObject, names: readonly string[]): Hit | undefined {
  for (const name of names) {
    if (!Object.hasOwn(obj, name)) continue;
    const value = obj[name];
    if (value !== undefined && value !== null) return { key: name, value };
  }
  const index = squashedIndex(obj);
  for (const name of names) {
    const key = index.get(squash(name));
    const value = key === undefined ? undefined : obj[key];
    if (key !== undefined && value !== undefined && value !== null) return { key, value };
  }
  return undefined;
}

/**
 * The first of `names` the object has, as sent or written another way, whatever its value (null included): for
 * fields whose mere presence decides, such as an id.
 */
export function present(obj: RawObject, names: readonly string[]): Hit | undefined {
  let index: ReadonlyMap<string, string> | undefined;
  for (const name of names) {
    if (Object.hasOwn(obj, name)) return { key: name, value: obj[name] };
    index ??= squashedIndex(obj);
    const key = index.get(squash(name));
    if (key !== undefined) return { key, value: obj[key] };
  }
  return undefined;
}

/** `lookup(obj, [name])` without the array. */
function lookupOne(obj: RawObject, name: string): Hit | undefined {
  if (Object.hasOwn(obj, name)) {
    const value = obj[name];
    if (value !== undefined && value !== null) return { key: name, value };
  }
  const key = squashedIndex(obj).get(squash(name));
  const value = key === undefined ? undefined : obj[key];
  return key !== undefined && value !== undefined && value !== null ? { key, value } : undefined;
}

/** Whether `lookup` would find anything, without building the hit. */
export function has(obj: RawObject, names: readonly string[]): boolean {
  for (const name of names) {
    if (!Object.hasOwn(obj, name)) continue;
    const value = obj[name];
    if (value !== undefined && value !== null) return true;
  }
  const index = squashedIndex(obj);
  for (const name of names) {
    const key = index.get(squash(name));
    const value = key === undefined ? undefined : obj[key];
    if (key !== undefined && value !== undefined && value !== null) return true;
  }
  return false;
}

export function field(obj: RawObject, names: readonly string[]): unknown {
  return lookup(obj, names)?.value;
}

/** An object's keys, in order, and their index by squashed name. */
interface Shape {
  readonly keys: readonly string[];
  readonly index: Map<string, string>;
}

/**
 * The shapes of the last few objects asked about. The ten thousand orders of a list (and their nested objects) share
 * a handful of shapes, so an object is matched against these by comparing its keys, and only a new shape costs a
 * map: no map per object, no WeakMap entry per object.
 */
const recentShapes: Shape[] = [];
const RECENT_SHAPES = 8;
/** Objects with more keys are indexed each time and not remembered: a wide hostile object stays a one-off. */
const MAX_SHAPE_KEYS = 128;

/** Whether an object's own keys are exactly `keys`, in that order: a shape met before. */
export function sameKeys(obj: RawObject, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in obj) {
    if (keys[i] !== key) return false;
    i++;
  }
  return i === keys.length;
}

/** The last object asked about, for the one-off shapes that are not remembered. */
let lastObject: RawObject | undefined;
let lastIndex: ReadonlyMap<string, string> | undefined;

export function squashedIndex(obj: RawObject): ReadonlyMap<string, string> {
  if (obj === lastObject && lastIndex) return lastIndex;
  for (const shape of recentShapes) {
    if (sameKeys(obj, shape.keys)) {
      lastObject = obj;
      lastIndex = shape.index;
      return shape.index;
    }
  }
  const keys = Object.keys(obj);
  const index = new Map<string, string>();
  for (const key of keys) {
    const squashed = squash(key);
    if (!index.has(squashed)) index.set(squashed, key);
  }
  if (keys.length <= MAX_SHAPE_KEYS) {
    recentShapes.unshift({ keys, index });
    if (recentShapes.length > RECENT_SHAPES) recentShapes.pop();
  }
  lastObject = obj;
  lastIndex = index;
  return index;
}

const squashed = new Map<string, string>();

export function squash(name: string): string {
  let result = squashed.get(name);
  if (result === undefined) {
    result = name.toLowerCase().replace(/[_\-\s]/g, '');
    // Field names repeat from object to object; server keys are bounded by what the API has.
    if (squashed.size < 10_000 && name.length <= 64) squashed.set(name, result);
  }
  return result;
}

/**
 * ISPsystem's BILLmanager writes every value of its JSON as `{"$": value}`: an object whose only key is `$` stands
 * for that value (one level: `{"$": {"$": …}}` is not unwrapped again). Anything else is returned as it is.
 */
export function bare(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  let only: unknown;
  let count = 0;
  for (const key in value) {
    if (key !== '$' || ++count > 1) return value;
    only = (value as RawObject).$;
  }
  return count === 1 ? only : value;
}

/**
 * A non-empty string, or a number turned into one (`{"$": …}` read as its value). For display text: ids are read by
 * `ids.ts` instead.
 */
export function asText(wrapped: unknown): string | undefined {
  const value = bare(wrapped);
  if (typeof value === 'string') {
    const text = value.trim();
    return text ? text : undefined;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

/** The first of `names` that holds text, and where it was. */
export function textHit(
  obj: RawObject,
  names: readonly string[],
  skip?: string,
): { key: string; text: string } | undefined {
  for (const name of names) {
    const hit = lookupOne(obj, name);
    if (!hit || hit.key === skip) continue;
    const text = asText(hit.value);
    if (text !== undefined) return { key: hit.key, text };
  }
  return undefined;
}

export function textField(obj: RawObject, names: readonly string[]): string | undefined {
  return textHit(obj, names)?.text;
}

/** A path for the trace, e.g. `data[].attributes.hostname`; server keys are cut so the log stays short. */
export function joinPath(base: string, key: string): string {
  const part = key.length > 30 ? `${key.slice(0, 30)}…` : key;
  return base ? `${base}.${part}` : part;
}

/** A trace that puts a list's path before each entry's own. */
export function prefixed(trace: FieldTrace, prefix: string): FieldTrace {
  return { use: (role, path) => trace.use(role, path ? `${prefix}.${path}` : prefix) };
}

/** Reads every entry of a list; entries that cannot be read are skipped and counted, not fatal. */
export function readEach<T>(
  list: readonly unknown[],
  read: (entry: unknown, trace?: FieldTrace) => T,
  trace?: FieldTrace,
): { items: T[]; skipped: number } {
  const items: T[] = [];
  let skipped = 0;
  // Only the first readable entry is traced (trying at most three): the log needs one example, and a 10,000-entry
  // list must stay fast.
  let tracing = trace ? 3 : 0;
  for (const entry of list) {
    try {
      items.push(read(entry, tracing > 0 ? trace : undefined));
      tracing = 0;
    } catch {
      skipped++;
      tracing--;
    }
  }
  return { items, skipped };
}
