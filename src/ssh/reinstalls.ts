// After a reinstall a changed host key is expected, so forgetting the old one can be offered; without one it is a
// warning. Kept in `globalState`: known_hosts is per machine.
import { type OrderAction } from '../api/models';

export const REINSTALLS_KEY = 'hostingAccount.ssh.reinstalled';
export const MAX_REINSTALLS = 200;

export interface Reinstalled {
  readonly accountId: string;
  readonly orderId: string;
  readonly at: number;
}

export interface StoredReinstalls {
  readonly version: 1;
  readonly servers: readonly Reinstalled[];
}

export const NO_REINSTALLS: StoredReinstalls = { version: 1, servers: [] };

const ACCOUNT_ID = /^[\da-z]{1,32}$/;
const MAX_ORDER_ID = 256;

export function readReinstalls(raw: unknown): StoredReinstalls {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return NO_REINSTALLS;
  const { version, servers } = raw as Record<string, unknown>;
  if (version !== 1 || !Array.isArray(servers)) return NO_REINSTALLS;
  const seen = new Set<string>();
  const out: Reinstalled[] = [];
  const list = servers.slice(-MAX_REINSTALLS * 2);
  for (let i = list.length - 1; i >= 0 && out.length < MAX_REINSTALLS; i--) {
    const entry = readEntry(list[i]);
    if (!entry || seen.has(keyOf(entry.accountId, entry.orderId))) continue;
    seen.add(keyOf(entry.accountId, entry.orderId));
    out.push(entry);
  }
  return { version: 1, servers: out.reverse() };
}

export function noteSettled(
  stored: StoredReinstalls,
  accountId: string,
  settled: { readonly orderId: string; readonly action: OrderAction },
  now: number,
): StoredReinstalls {
  return settled.action === 'reinstall' ? noteReinstalled(stored, accountId, settled.orderId, now) : stored;
}

export function noteReinstalled(
  stored: StoredReinstalls,
  accountId: string,
  orderId: string,
  at: number,
): StoredReinstalls {
  const entry = readEntry({ accountId, orderId, at });
  if (!entry) throw new RangeError('invalid reinstall record');
  const others = stored.servers.filter((s) => keyOf(s.accountId, s.orderId) !== keyOf(accountId, orderId));
  return { version: 1, servers: [...others, entry].slice(-MAX_REINSTALLS) };
}

export function reinstalledAt(stored: StoredReinstalls, accountId: string, orderId: string): number | undefined {
  return stored.servers.find((s) => s.accountId === accountId && s.orderId === orderId)?.at;
}

export function noteConnected(stored: StoredReinstalls, accountId: string, orderId: string): StoredReinstalls {
  return { version: 1, servers: stored.servers.filter((s) => s.accountId !== accountId || s.orderId !== orderId) };
}

export function forgetAccount(stored: StoredReinstalls, accountId: string): StoredReinstalls {
  return { version: 1, servers: stored.servers.filter((s) => s.accountId !== accountId) };
}

function readEntry(item: unknown): Reinstalled | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const { accountId, orderId, at } = item as Record<string, unknown>;
  if (typeof accountId !== 'string' || !ACCOUNT_ID.test(accountId)) return undefined;
  if (
    typeof orderId !== 'string' ||
    orderId.length === 0 ||
    orderId.length > MAX_ORDER_ID ||
    hasLoneSurrogate(orderId)
  ) {
    return undefined;
  }
  if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0) return undefined;
  return { accountId, orderId, at };
}

function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return true;
    i++;
  }
  return false;
}

function keyOf(accountId: string, orderId: string): string {
  return `${accountId}\n${orderId}`;
}
