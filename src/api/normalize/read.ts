/** Small readers for JSON of unknown shape. Nothing here throws. */

import { type RawObject } from '../models';

export function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Looks a field up by several names, case-insensitively and ignoring `_`/`-`, so `power_status` = `powerStatus`. */
export function field(obj: RawObject, names: readonly string[]): unknown {
  for (const name of names) {
    const value = obj[name];
    if (value !== undefined && value !== null) return value;
  }
  const index = squashedIndex(obj);
  for (const name of names) {
    const value = index.get(squash(name));
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

/** Each object's keys, squashed, built once: a list of ten thousand orders asks each one many times. */
const indexes = new WeakMap<RawObject, Map<string, unknown>>();

function squashedIndex(obj: RawObject): Map<string, unknown> {
  let index = indexes.get(obj);
  if (!index) {
    index = new Map();
    for (const [key, value] of Object.entries(obj)) {
      const squashed = squash(key);
      if (!index.has(squashed)) index.set(squashed, value);
    }
    indexes.set(obj, index);
  }
  return index;
}

const squashed = new Map<string, string>();

function squash(name: string): string {
  let result = squashed.get(name);
  if (result === undefined) {
    result = name.toLowerCase().replace(/[_\-\s]/g, '');
    // Field names repeat from object to object; server keys are bounded by what the API has.
    if (squashed.size < 10_000) squashed.set(name, result);
  }
  return result;
}

/** A non-empty string, or a number turned into one. */
export function asText(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const text = value.trim();
    return text ? text : undefined;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

export function textField(obj: RawObject, names: readonly string[]): string | undefined {
  for (const name of names) {
    const text = asText(field(obj, [name]));
    if (text !== undefined) return text;
  }
  return undefined;
}

/** A finite number from a number or a numeric string such as "42.50", "1,234.5" or "42,50". */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  let text = value.trim().replace(/[\s'_]/g, '');
  if (!/^[-+]?[\d.,]+$/.test(text)) return undefined;
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  // "1.234,56" and "42,50" use a decimal comma; "1,234" and "1,234.5" use the comma to group thousands.
  const decimalComma = lastComma > lastDot && (lastDot >= 0 || text.length - lastComma - 1 !== 3);
  text = decimalComma ? text.replace(/\./g, '').replace(',', '.') : text.replace(/,/g, '');
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

/** Keys under which list endpoints commonly wrap their array, in order of preference. */
const LIST_KEYS = ['data', 'items', 'results', 'orders', 'invoices', 'servers', 'services', 'records', 'rows', 'list',
  'content', 'entries', 'value', 'values', 'collection', 'objects', 'nodes'];

/** Finds the array in a list response: a bare array, under a known wrapper key, nested once, or the only array. */
export function findList(body: unknown, preferred: readonly string[] = []): unknown[] | undefined {
  if (Array.isArray(body)) return body as unknown[];
  if (!isObject(body)) return undefined;
  for (const key of [...preferred, ...LIST_KEYS]) {
    const value = field(body, [key]);
    if (Array.isArray(value)) return value as unknown[];
    if (isObject(value)) {
      const nested = findList(value, preferred);
      if (nested) return nested;
    }
  }
  const arrays = Object.values(body).filter((value): value is unknown[] => Array.isArray(value));
  return arrays.length === 1 ? arrays[0] : undefined;
}

/**
 * Unwraps a single object sent as `{ data: {...} }`, `{ order: {...} }` and the like. An object that already has one
 * of `ownFields` is the thing itself, so a nested `server: {...}` field of an order is not mistaken for a wrapper.
 */
export function unwrapObject(
  body: unknown,
  wrappers: readonly string[],
  ownFields: readonly string[] = [],
): RawObject | undefined {
  if (!isObject(body)) return undefined;
  if (ownFields.length && field(body, ownFields) !== undefined) return body;
  for (const key of wrappers) {
    const value = field(body, [key]);
    if (isObject(value)) return unwrapObject(value, wrappers, ownFields);
  }
  return body;
}

/** Reads every entry of a list; entries that cannot be read are skipped and counted, not fatal. */
export function readEach<T>(list: readonly unknown[], read: (entry: unknown) => T): { items: T[]; skipped: number } {
  const items: T[] = [];
  let skipped = 0;
  for (const entry of list) {
    try {
      items.push(read(entry));
    } catch {
      skipped++;
    }
  }
  return { items, skipped };
}

/** A few words on what a value was, for messages that say what was expected instead. */
export function describe(value: unknown): string {
  if (value === undefined) return 'an empty body';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isObject(value)) {
    const keys = Object.keys(value).slice(0, 5);
    return keys.length ? `an object with ${keys.map((k) => `"${k.slice(0, 30)}"`).join(', ')}` : 'an empty object';
  }
  return `a ${typeof value}`;
}
