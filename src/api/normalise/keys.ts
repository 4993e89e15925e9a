/**
 * Name lookups answered from one pass over an object's keys. `lookup` and `textHit` (read.ts) look each name up in
 * turn; a reader that needs many names from the same object instead feeds every key to a `NameHits` once and asks it
 * afterwards, with the same answers.
 */

import { type RawObject } from '../models';
import { squash } from './read';

/** A list of field names, as `lookup` reads it: exact names first, then names compared squashed. */
export class NameTable {
  readonly names: readonly string[];
  /** For each name, the first position of the same name: where its exact key is kept. */
  readonly exactSlot: readonly number[];
  /** For each name, the first position of a name with the same squashed form: where its squashed key is kept. */
  readonly group: readonly number[];
  private readonly exact = new Map<string, number>();
  private readonly squashed = new Map<string, number>();

  constructor(names: readonly string[]) {
    this.names = names;
    const exactSlot: number[] = [];
    const group: number[] = [];
    names.forEach((name, i) => {
      if (!this.exact.has(name)) this.exact.set(name, i);
      const s = squash(name);
      if (!this.squashed.has(s)) this.squashed.set(s, i);
      exactSlot.push(this.exact.get(name) as number);
      group.push(this.squashed.get(s) as number);
    });
    this.exactSlot = exactSlot;
    this.group = group;
  }

  /** The slot of a key that is exactly one of the names, or -1. */
  exactOf(key: string): number {
    return this.exact.get(key) ?? -1;
  }

  /** The group of a key whose squashed form is one of the names', or -1. */
  groupOf(squashedKey: string): number {
    return this.squashed.get(squashedKey) ?? -1;
  }
}

/** What one pass over one object's keys found for a table. Reused from object to object: `reset` first. */
export class NameHits {
  /** Exact keys whose value is neither null nor undefined, by slot. */
  private readonly exact: Array<string | undefined>;
  /** The first key (in the object's order) of each squashed group, whatever its value, as `lookup`'s index has it. */
  private readonly first: Array<string | undefined>;

  constructor(readonly table: NameTable) {
    this.exact = new Array<string | undefined>(table.names.length).fill(undefined);
    this.first = new Array<string | undefined>(table.names.length).fill(undefined);
  }

  reset(): void {
    const { exact, first } = this;
    for (let i = 0; i < exact.length; i++) {
      exact[i] = undefined;
      first[i] = undefined;
    }
  }

  /** One key of the object, with its slot and group in the table (-1 when none). */
  note(slot: number, group: number, key: string, value: unknown): void {
    if (slot >= 0 && value !== undefined && value !== null) this.exact[slot] = key;
    if (group >= 0 && this.first[group] === undefined) this.first[group] = key;
  }

  /** `lookup(obj, [names[i]])?.key`. */
  keyOf(obj: RawObject, i: number): string | undefined {
    const exact = this.exact[this.table.exactSlot[i] as number];
    if (exact !== undefined) return exact;
    const key = this.first[this.table.group[i] as number];
    if (key === undefined) return undefined;
    const value = obj[key];
    return value !== undefined && value !== null ? key : undefined;
  }

  /** `present(obj, [names[i]])?.key`: the key as sent or written another way, whatever its value. */
  presentKeyOf(obj: RawObject, i: number): string | undefined {
    const name = this.table.names[i] as string;
    return Object.hasOwn(obj, name) ? name : this.first[this.table.group[i] as number];
  }

  /** `lookup(obj, names)?.key`. */
  lookupKey(obj: RawObject): string | undefined {
    const { exactSlot, group, names } = this.table;
    for (let i = 0; i < names.length; i++) {
      const exact = this.exact[exactSlot[i] as number];
      if (exact !== undefined) return exact;
    }
    for (let i = 0; i < names.length; i++) {
      const key = this.first[group[i] as number];
      const value = key === undefined ? undefined : obj[key];
      if (key !== undefined && value !== undefined && value !== null) return key;
    }
    return undefined;
  }
}
