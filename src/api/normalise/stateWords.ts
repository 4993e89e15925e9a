import { type OrderState } from '../models';
import { wordTable } from './read';

const STATE_WORDS: Readonly<Record<Exclude<OrderState, 'unknown'>, string>> = {
  running:
    'running active online started up on powered_on power_on poweron ready live enabled ok healthy available ' +
    'vm_running',
  stopped:
    'stopped offline off down halted shutoff shut_off shutdown shut_down powered_off power_off poweroff inactive ' +
    'paused stop exited sleeping deallocated vm_stopped vm_deallocated',
  busy:
    'starting stopping restarting rebooting reinstalling installing provisioning pending creating building ' +
    'deploying migrating processing queued in_progress booting shutting_down powering_on powering_off resizing ' +
    'rebuilding updating initializing busy transitioning setup reloading new restoring restoring_backup cloning ' +
    'upgrading maintenance deleting backing_up transferring deallocating vm_starting vm_stopping vm_deallocating ' +
    'in_process',
  suspended:
    'suspended blocked locked frozen disabled expired overdue banned terminated cancelled canceled deleted fraud ' +
    'archive archived on_hold destroyed',
};
const WORD_TO_STATE = wordTable(STATE_WORDS);
/** Read as the start of a longer status ("stopped in place", "installingbooting"). */
const PREFIX_WORDS = [...WORD_TO_STATE.keys()].filter((word) => word.length >= 4).sort((a, b) => b.length - a.length);

const MAX_STATE_TEXT = 64;
const cache = new Map<string, OrderState>();

export function normaliseStateWord(word: string): OrderState {
  if (word.length > MAX_STATE_TEXT) return 'unknown';
  let state = cache.get(word);
  if (state === undefined) {
    state = matchWord(word);
    if (cache.size < 1000) cache.set(word, state);
  }
  return state;
}

function matchWord(word: string): OrderState {
  // Azure writes `PowerState/running`.
  const key = (word.includes('/') ? word.slice(word.lastIndexOf('/') + 1) : word)
    .trim()
    .toLowerCase()
    .replace(/[\s\-.]+/g, '_');
  const exact = WORD_TO_STATE.get(key) ?? WORD_TO_STATE.get(key.replace(/_/g, ''));
  if (exact) return exact;
  if (key.includes('suspen')) return 'suspended';
  const prefix = PREFIX_WORDS.find((candidate) => key.startsWith(candidate));
  return prefix ? (WORD_TO_STATE.get(prefix) ?? 'unknown') : 'unknown';
}
