import { parseBaseUrl } from '../api/baseUrl';
import { type ConnectionState, type Slot } from './types';

export interface ConnectionInputs {
  readonly baseUrl: string;
  readonly hasKey: boolean;
  readonly keyRejected: boolean;
  readonly slots: ReadonlyArray<Slot<unknown>>;
}

export function connectionState({ baseUrl, hasKey, keyRejected, slots }: ConnectionInputs): ConnectionState {
  if (!baseUrl.trim()) return 'noBaseUrl';
  try {
    parseBaseUrl(baseUrl);
  } catch {
    return 'badBaseUrl';
  }
  if (!hasKey) return 'noKey';
  if (keyRejected) return 'invalidKey';
  if (slots.some((s) => s.updatedAt !== undefined || s.value !== undefined)) return 'ready';
  return slots.some((s) => s.error) && !slots.some((s) => s.loading) ? 'unreachable' : 'loading';
}

export function canRequest(state: ConnectionState): boolean {
  return state === 'ready' || state === 'loading' || state === 'unreachable' || state === 'invalidKey';
}
