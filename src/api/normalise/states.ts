/** Which of an order's several state fields to believe; the words themselves are read by `stateWords.ts`. */

import { type OrderState, type RawObject } from '../models';
import { type FieldTrace, isObject, joinPath, squash, textHit } from './read';
import { normaliseStateWord } from './stateWords';

/** Lifecycle fields: what the provider thinks of the service (active, pending, suspended…). */
const LIFECYCLE_FIELDS = [
  'status',
  'state',
  'server_status',
  'server_state',
  'vm_status',
  'lifecycle',
  'condition',
  'service_status',
  'domainstatus',
  'order_status',
  'account_status',
];
/** Power fields: whether the machine runs. Better than an "active" lifecycle for running/stopped. */
const POWER_FIELDS = [
  'power_status',
  'power_state',
  'powerstate',
  'current_state',
  'vm_state',
  'power',
  'running_state',
  'instance_state',
];
const SUB_FIELDS = ['name', 'value', 'code', 'label', 'status', 'state'];
/** Booleans that, when true, say the service cannot be used or is busy, whatever the status word. */
const SUSPENDED_FLAGS = ['is_suspended', 'suspended', 'locked', 'is_locked'];
const BUSY_FLAGS = ['is_installing', 'is_transferring', 'installing'];
const RUNNING_FLAGS = ['running', 'is_running', 'online', 'is_online', 'powered_on', 'active'];

/** `key` is the field's own name, `inner` the sub-field of an object-valued status: the path is built only to trace. */
interface Word {
  readonly text: string;
  readonly state: OrderState;
  readonly key: string;
  readonly inner?: string;
}

type Group = 'lifecycle' | 'power' | 'suspendedFlag' | 'busyFlag' | 'runningFlag';
export interface Role {
  readonly group: Group;
  readonly rank: number;
}
/** Every state-related field name, squashed, with its group and rank: an order is read in one pass over its keys. */
const ROLES = new Map<string, Role>();
for (const [group, names] of [
  ['lifecycle', LIFECYCLE_FIELDS],
  ['power', POWER_FIELDS],
  ['suspendedFlag', SUSPENDED_FLAGS],
  ['busyFlag', BUSY_FLAGS],
  ['runningFlag', RUNNING_FLAGS],
] as const) {
  names.forEach((name, rank) => {
    if (!ROLES.has(squash(name))) ROLES.set(squash(name), { group, rank });
  });
}

/** The state role of a squashed field name, for a caller that reads an object's keys in one pass of its own. */
export function stateRole(squashed: string): Role | undefined {
  return ROLES.get(squashed);
}

/** A status word, which may be a string, a number or an object such as `{ name: "running" }`. */
function readWord(key: string, value: unknown): Word | undefined {
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value).trim();
    return text ? { text, state: normaliseStateWord(text), key } : undefined;
  }
  if (!isObject(value)) return undefined;
  const inner = textHit(value, SUB_FIELDS);
  return inner ? { text: inner.text, state: normaliseStateWord(inner.text), key, inner: inner.key } : undefined;
}

function isSettled(state: OrderState): boolean {
  return state === 'running' || state === 'stopped';
}

/** The state fields of one object, fed key by key (`note`), then read by `decideState`; `reset` between objects. */
export class StateScan {
  readonly lifecycle: Array<Word | undefined> = new Array<Word | undefined>(LIFECYCLE_FIELDS.length).fill(undefined);
  readonly power: Array<Word | undefined> = new Array<Word | undefined>(POWER_FIELDS.length).fill(undefined);
  suspendedRank = Infinity;
  suspended = false;
  busyRank = Infinity;
  busy = false;
  runningRank = Infinity;
  running: boolean | undefined;

  /** Ready for another object. */
  reset(): void {
    const { lifecycle, power } = this;
    for (let i = 0; i < lifecycle.length; i++) lifecycle[i] = undefined;
    for (let i = 0; i < power.length; i++) power[i] = undefined;
    this.suspendedRank = Infinity;
    this.suspended = false;
    this.busyRank = Infinity;
    this.busy = false;
    this.runningRank = Infinity;
    this.running = undefined;
  }

  /** One field with a state role; `value` is neither null nor undefined. */
  note(role: Role, key: string, value: unknown): void {
    const { group, rank } = role;
    if (group === 'lifecycle' || group === 'power') {
      const words = group === 'lifecycle' ? this.lifecycle : this.power;
      if (words[rank] === undefined) words[rank] = readWord(key, value);
    } else if (typeof value === 'boolean') {
      if (group === 'suspendedFlag') {
        if (rank < this.suspendedRank) {
          this.suspendedRank = rank;
          this.suspended = value;
        }
      } else if (group === 'busyFlag') {
        if (rank < this.busyRank) {
          this.busyRank = rank;
          this.busy = value;
        }
      } else if (rank < this.runningRank) {
        this.runningRank = rank;
        this.running = value;
      }
    }
  }
}

function scan(obj: RawObject): StateScan {
  const found = new StateScan();
  for (const key in obj) {
    const role = ROLES.get(squash(key));
    const value = obj[key];
    if (!role || value === null || value === undefined) continue;
    found.note(role, key, value);
  }
  return found;
}

function firstWord(words: ReadonlyArray<Word | undefined>, test: (state: OrderState) => boolean): Word | undefined {
  for (const word of words) if (word !== undefined && test(word.state)) return word;
  return undefined;
}

const isWaiting = (state: OrderState): boolean => state === 'busy' || state === 'suspended';
const always = (): boolean => true;

/**
 * Lifecycle words that say busy or suspended win; otherwise a power word that maps to a state; otherwise the first
 * lifecycle word, even unknown (its text is shown as sent); otherwise boolean flags.
 */
export function readState(
  obj: RawObject,
  base: string,
  trace?: FieldTrace,
): { state: OrderState; statusText?: string } {
  return decideState(scan(obj), base, trace);
}

/** `readState` for fields already gathered by a caller's own pass. */
export function decideState(
  found: StateScan,
  base: string,
  trace?: FieldTrace,
): { state: OrderState; statusText?: string } {
  const { lifecycle } = found;
  const power = firstWord(found.power, always);
  let chosen = firstWord(lifecycle, isWaiting);
  if (!chosen && power && power.state !== 'unknown') chosen = power;
  chosen ??= firstWord(lifecycle, isSettled) ?? firstWord(lifecycle, always);
  chosen ??= power;
  if (found.suspended && chosen?.state !== 'suspended') return { state: 'suspended', statusText: 'suspended' };
  if (found.busy && (!chosen || isSettled(chosen.state))) return { state: 'busy', statusText: 'installing' };
  if (chosen) {
    if (trace) {
      trace.use(
        'state',
        chosen.inner ? joinPath(joinPath(base, chosen.key), chosen.inner) : joinPath(base, chosen.key),
      );
    }
    return { state: chosen.state, statusText: chosen.text };
  }
  const { running } = found;
  if (running === undefined) return { state: 'unknown' };
  return { state: running ? 'running' : 'stopped', statusText: running ? 'running' : 'stopped' };
}
