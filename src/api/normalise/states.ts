import { type OrderState } from '../models';
import { type Names, Scope, find, findText, isObject, names, pathOf } from './read';
import { normaliseStateWord } from './stateWords';

const LIFECYCLE = names(
  'status state server_status server_state vm_status lifecycle condition service_status domainstatus ' +
    'order_status account_status phase',
);
/** Better than an "active" lifecycle; Azure's `statuses` is a list (`{code: "PowerState/running"}`). */
const POWER = names(
  'power_status power_state powerstate current_state vm_state power running_state instance_state statuses',
);
const SUB_FIELDS = names('name value code label status state');
const STATUS = names('status');
const SUSPENDED_FLAGS = names('is_suspended suspended locked is_locked');
const BUSY_FLAGS = names('is_installing is_transferring installing');
const RUNNING_FLAGS = names('running is_running online is_online powered_on active');

interface Word {
  readonly text: string;
  readonly state: OrderState;
  readonly path: string;
}

function wordsOf(scopes: readonly Scope[], table: Names): Word[] {
  const found: Word[] = [];
  for (const hit of scopes.flatMap((scope) => scope.hits(table))) {
    if (Array.isArray(hit.value)) {
      const listed = wordsOf(
        hit.value.slice(0, 8).flatMap((v: unknown) => (isObject(v) ? [new Scope({ status: v }, pathOf(hit))] : [])),
        STATUS,
      );
      const known = listed.find((w) => w.state !== 'unknown') ?? listed[0];
      if (known) found.push(known);
      continue;
    }
    const inner = isObject(hit.value) ? findText([new Scope(hit.value, pathOf(hit))], SUB_FIELDS) : undefined;
    const { value } = hit;
    const text = inner?.text ?? (typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '');
    if (text) found.push({ text, state: normaliseStateWord(text), path: inner ? pathOf(inner.hit) : pathOf(hit) });
  }
  return found;
}

function flag(scopes: readonly Scope[], table: Names): boolean | undefined {
  const hit = find(scopes, table, { stateToo: true, accept: (value) => typeof value === 'boolean' });
  return hit?.value as boolean | undefined;
}

const isSettled = (state: OrderState): boolean => state === 'running' || state === 'stopped';
const isWaiting = (state: OrderState): boolean => state === 'busy' || state === 'suspended';

/** A busy or suspended lifecycle word wins over a known power word. */
export function readState(scopes: readonly Scope[]): { state: OrderState; statusText?: string; path?: string } {
  const lifecycle = wordsOf(scopes, LIFECYCLE);
  const power = wordsOf(scopes, POWER)[0];
  let chosen = lifecycle.find((w) => isWaiting(w.state));
  if (!chosen && power && power.state !== 'unknown') chosen = power;
  chosen ??= lifecycle.find((w) => isSettled(w.state)) ?? lifecycle[0] ?? power;
  if (flag(scopes, SUSPENDED_FLAGS) && chosen?.state !== 'suspended') {
    return { state: 'suspended', statusText: 'suspended' };
  }
  if (flag(scopes, BUSY_FLAGS) && (!chosen || isSettled(chosen.state))) {
    return { state: 'busy', statusText: 'installing' };
  }
  if (chosen) return { state: chosen.state, statusText: chosen.text, path: chosen.path };
  const running = flag(scopes, RUNNING_FLAGS);
  if (running === undefined) return { state: 'unknown' };
  return { state: running ? 'running' : 'stopped', statusText: running ? 'running' : 'stopped' };
}
