/** Small readers for JSON of unknown shape, and the one lookup of names over an object and its containers. */

import { type RawObject } from '../models';

/** Told which field each value came from, so a user can report what their server sends. */
export interface FieldTrace {
  use(role: string, path: string): void;
}

export function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A table of names written as one text: `words('id uuid order_id')`. */
export function words(text: string): readonly string[] {
  return text.split(' ');
}

const squashed = new Map<string, string>();

/** A name without case, `_`, `-` or spaces, so `power_status` = `powerStatus`; remembered, server keys bounded. */
export function squash(name: string): string {
  let result = squashed.get(name);
  if (result === undefined) {
    result = name.toLowerCase().replace(/[_\-\s]/g, '');
    if (squashed.size < 10_000 && name.length <= 64) squashed.set(name, result);
  }
  return result;
}

/** Field names in order of preference, each with its squashed form. */
export interface Names {
  readonly list: readonly string[];
  readonly squashed: readonly string[];
}

export function names(list: string | readonly string[]): Names {
  const all = typeof list === 'string' ? words(list) : list;
  return { list: all, squashed: all.map(squash) };
}

/** One object whose fields are read, with where it sits for the trace. */
export class Scope {
  private index?: Map<string, string>;

  constructor(
    readonly obj: RawObject,
    readonly path: string,
    /** A `status` object: read for the state, not for names or ids. */
    readonly stateOnly = false,
  ) {}

  /** The object's key for a name: the first key written the same, whatever its case, `_`, `-` or spaces. */
  keyOf(squashedName: string): string | undefined {
    if (!this.index) {
      this.index = new Map();
      for (const key in this.obj) {
        const s = squash(key);
        if (!this.index.has(s)) this.index.set(s, key);
      }
    }
    return this.index.get(squashedName);
  }

  /** Every name of the table the object holds a value for (null is none), in the table's order. */
  hits(table: Names): Hit[] {
    const found: Hit[] = [];
    for (let i = 0; i < table.list.length; i++) {
      const key = this.keyOf(table.squashed[i] as string);
      const value = key === undefined ? undefined : this.obj[key];
      if (key !== undefined && value !== undefined && value !== null) found.push({ scope: this, key, value });
    }
    return found;
  }
}

/** A value and where it was. */
export interface Hit {
  readonly scope: Scope;
  readonly key: string;
  readonly value: unknown;
}

export const pathOf = (hit: Hit): string => joinPath(hit.scope.path, hit.key);

/**
 * The first of `names` with a value (not null) in the first scope that has one. `present` takes the first name there
 * whatever its value (for fields whose presence decides, such as an id); `stateToo` also reads `status` objects.
 */
export function find(
  scopes: readonly Scope[],
  table: Names,
  options: {
    present?: boolean;
    stateToo?: boolean;
    accept?: (value: unknown, key: string, scope: Scope) => boolean;
  } = {},
): Hit | undefined {
  for (const scope of scopes) {
    if (scope.stateOnly && !options.stateToo) continue;
    for (let i = 0; i < table.list.length; i++) {
      const key = scope.keyOf(table.squashed[i] as string);
      if (key === undefined) continue;
      const value = scope.obj[key];
      if (options.present) return { scope, key, value };
      if (value !== undefined && value !== null && (!options.accept || options.accept(value, key, scope))) {
        return { scope, key, value };
      }
    }
  }
  return undefined;
}

/** The first of `names` that holds text, and where. */
export function findText(
  scopes: readonly Scope[],
  table: Names,
  skip?: string,
): { hit: Hit; text: string } | undefined {
  let text: string | undefined;
  const hit = find(scopes, table, { accept: (value, key) => key !== skip && (text = asText(value)) !== undefined });
  return hit && text !== undefined ? { hit, text } : undefined;
}

/** `find` in one plain object. */
export function lookup(obj: RawObject, list: readonly string[]): Hit | undefined {
  return find([new Scope(obj, '')], names(list));
}

export function field(obj: RawObject, list: readonly string[]): unknown {
  return lookup(obj, list)?.value;
}

export function textField(obj: RawObject, list: readonly string[]): string | undefined {
  return findText([new Scope(obj, '')], names(list))?.text;
}

/** BILLmanager writes every value as `{"$": value}`: such an object stands for its value (one level). */
export function bare(value: unknown): unknown {
  if (!isObject(value)) return value;
  let only: unknown;
  let count = 0;
  for (const key in value) {
    if (key !== '$' || ++count > 1) return value;
    only = value.$;
  }
  return count === 1 ? only : value;
}

/** A non-empty string, or a number turned into one: display text (ids are read by `ids.ts`). */
export function asText(wrapped: unknown): string | undefined {
  const value = bare(wrapped);
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'bigint' ? value.toString() : undefined;
}

/** A path for the trace, e.g. `data[].attributes.hostname`; server keys are cut so the log stays short. */
export function joinPath(base: string, key: string): string {
  const part = key.length > 30 ? `${key.slice(0, 30)}…` : key;
  return base ? `${base}.${part}` : part;
}

export function prefixed(trace: FieldTrace, prefix: string): FieldTrace {
  return { use: (role, path) => trace.use(role, path ? `${prefix}.${path}` : prefix) };
}
