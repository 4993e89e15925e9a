import { type RawObject } from '../models';

/** Which field each value came from, for a user to report what their server sends. */
export interface FieldTrace {
  use(role: string, path: string): void;
}

export function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function words(text: string): readonly string[] {
  return text.split(' ');
}

export function wordTable<K extends string>(table: Readonly<Record<K, string>>): ReadonlyMap<string, K> {
  return new Map(Object.entries<string>(table).flatMap(([key, list]) => words(list).map((w) => [w, key as K])));
}

const squashed = new Map<string, string>();

/** `power_status` = `powerStatus`; the memo is bounded, keys are the server's. */
export function squash(name: string): string {
  let result = squashed.get(name);
  if (result === undefined) {
    result = name.toLowerCase().replace(/[_\-\s]/g, '');
    if (squashed.size < 10_000 && name.length <= 64) squashed.set(name, result);
  }
  return result;
}

export interface Names {
  readonly list: readonly string[];
  readonly squashed: readonly string[];
}

export function names(list: string | readonly string[]): Names {
  const all = typeof list === 'string' ? words(list) : list;
  return { list: all, squashed: all.map(squash) };
}

export class Scope {
  private index?: Map<string, string>;

  constructor(
    readonly obj: RawObject,
    readonly path: string,
    /** A `status` object: read for the state only. */
    readonly stateOnly = false,
  ) {}

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

export interface Hit {
  readonly scope: Scope;
  readonly key: string;
  readonly value: unknown;
}

export const pathOf = (hit: Hit): string => joinPath(hit.scope.path, hit.key);

/** `present`: the first name found, whatever it holds. */
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

export function findText(
  scopes: readonly Scope[],
  table: Names,
  skip?: string,
): { hit: Hit; text: string } | undefined {
  let text: string | undefined;
  const hit = find(scopes, table, { accept: (value, key) => key !== skip && (text = asText(value)) !== undefined });
  return hit && text !== undefined ? { hit, text } : undefined;
}

export function lookup(obj: RawObject, list: readonly string[]): Hit | undefined {
  return find([new Scope(obj, '')], names(list));
}

export function field(obj: RawObject, list: readonly string[]): unknown {
  return lookup(obj, list)?.value;
}

export function textField(obj: RawObject, list: readonly string[]): string | undefined {
  return findText([new Scope(obj, '')], names(list))?.text;
}

/** BILLmanager writes every value as `{"$": value}`. */
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

/** Display text; ids are read by `ids.ts`. */
export function asText(wrapped: unknown): string | undefined {
  const value = bare(wrapped);
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'bigint' ? value.toString() : undefined;
}

/** `data[].attributes.hostname`; server keys cut so the log stays short. */
export function joinPath(base: string, key: string): string {
  const part = key.length > 30 ? `${key.slice(0, 30)}…` : key;
  return base ? `${base}.${part}` : part;
}

export function prefixed(trace: FieldTrace, prefix: string): FieldTrace {
  return { use: (role, path) => trace.use(role, path ? `${prefix}.${path}` : prefix) };
}
