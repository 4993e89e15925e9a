import { parseBaseUrl } from '../api/baseUrl';
import { type FieldMap, parseFieldMap } from '../api/normalise/fieldMap';
import { DEFAULT_ACCOUNT_ID } from '../auth/secretNames';
import { hostOf } from '../util/hosts';

export { DEFAULT_ACCOUNT_ID };

/** Never its key: SecretStorage is not synced, so an account listed here may have no key on this machine. */
export interface AccountRecord {
  readonly id: string;
  readonly label: string;
  /** Already held to the base URL rules. */
  readonly baseUrl: string;
  readonly websiteUrl?: string;
  /** Where this provider's answers hold what the general reading misses (parsed: `parseFieldMap`). */
  readonly fieldMap?: FieldMap;
}

export interface StoredAccounts {
  readonly version: 1;
  readonly defaultLabel?: string;
  readonly defaultFieldMap?: FieldMap;
  readonly accounts: readonly AccountRecord[];
}

export const ACCOUNTS_STATE_KEY = 'hostingAccount.accounts';
export const MAX_ACCOUNTS = 20;
export const MAX_LABEL_LENGTH = 60;
const ID_PATTERN = /^[a-z0-9]{1,32}$/;

/** It may come from another machine or version, or be damaged: anything not exactly right is left out. */
export function readStoredAccounts(raw: unknown): StoredAccounts {
  if (!isObject(raw) || raw.version !== 1) return { version: 1, accounts: [] };
  const defaultLabel = cleanLabel(raw.defaultLabel);
  const list = Array.isArray(raw.accounts) ? raw.accounts.slice(0, MAX_ACCOUNTS * 2) : [];
  const seen = new Set<string>([DEFAULT_ACCOUNT_ID]);
  const accounts: AccountRecord[] = [];
  for (const item of list) {
    if (accounts.length >= MAX_ACCOUNTS - 1) break;
    const account = readAccount(item);
    if (!account || seen.has(account.id)) continue;
    seen.add(account.id);
    accounts.push(account);
  }
  const defaultFieldMap = readFieldMap(raw.defaultFieldMap);
  return {
    version: 1,
    accounts,
    ...(defaultLabel ? { defaultLabel } : {}),
    ...(defaultFieldMap ? { defaultFieldMap } : {}),
  };
}

/** A stored map that no longer holds to the rules (another version, a damaged list) is left out, never guessed at. */
function readFieldMap(value: unknown): FieldMap | undefined {
  try {
    return value === undefined ? undefined : parseFieldMap(value);
  } catch {
    return undefined;
  }
}

function readAccount(item: unknown): AccountRecord | undefined {
  if (!isObject(item)) return undefined;
  const { id } = item;
  if (typeof id !== 'string' || !ID_PATTERN.test(id) || id === DEFAULT_ACCOUNT_ID) return undefined;
  const label = cleanLabel(item.label);
  const baseUrl = validUrl(item.baseUrl);
  if (!label || !baseUrl) return undefined;
  const websiteUrl = validUrl(item.websiteUrl);
  const fieldMap = readFieldMap(item.fieldMap);
  return { id, label, baseUrl, ...(websiteUrl ? { websiteUrl } : {}), ...(fieldMap ? { fieldMap } : {}) };
}

/** The first account is the settings and the original secret: an existing setup needs no write. */
export function allAccounts(
  stored: StoredAccounts,
  settings: { readonly baseUrl: string; readonly websiteUrl: string },
): AccountRecord[] {
  const baseUrl = validUrl(settings.baseUrl) ?? settings.baseUrl.trim().slice(0, 2048);
  const websiteUrl = validUrl(settings.websiteUrl);
  const label = stored.defaultLabel ?? hostOf(baseUrl);
  const fieldMap = stored.defaultFieldMap;
  return [
    {
      id: DEFAULT_ACCOUNT_ID,
      label,
      baseUrl,
      ...(websiteUrl ? { websiteUrl } : {}),
      ...(fieldMap ? { fieldMap } : {}),
    },
    ...stored.accounts,
  ];
}

/** The RangeError is worded for the log; the command words it for the user. */
export function addAccount(
  stored: StoredAccounts,
  input: { readonly id: string; readonly label: string; readonly baseUrl: string; readonly websiteUrl?: string },
): StoredAccounts {
  if (stored.accounts.length >= MAX_ACCOUNTS - 1) throw new RangeError(`at most ${MAX_ACCOUNTS} accounts`);
  const account = readAccount(input);
  if (!account) throw new RangeError('invalid account');
  if (stored.accounts.some((a) => a.id === account.id)) throw new RangeError('duplicate account id');
  return { ...stored, accounts: [...stored.accounts, account] };
}

export function renameAccount(stored: StoredAccounts, id: string, label: string): StoredAccounts {
  const clean = cleanLabel(label);
  if (!clean) throw new RangeError('empty label');
  if (id === DEFAULT_ACCOUNT_ID) return { ...stored, defaultLabel: clean };
  if (!stored.accounts.some((a) => a.id === id)) throw new RangeError('no such account');
  return { ...stored, accounts: stored.accounts.map((a) => (a.id === id ? { ...a, label: clean } : a)) };
}

/** The key stays: it is kept under the account's id, not its address. */
export function editAccountAddress(
  stored: StoredAccounts,
  id: string,
  address: { readonly baseUrl: string; readonly websiteUrl?: string },
): StoredAccounts {
  const current = stored.accounts.find((a) => a.id === id);
  if (!current) throw new RangeError('no such account');
  const account = readAccount({ id, label: current.label, fieldMap: current.fieldMap, ...address });
  if (!account) throw new RangeError('invalid address');
  if (address.websiteUrl !== undefined && account.websiteUrl === undefined) throw new RangeError('invalid website');
  return { ...stored, accounts: stored.accounts.map((a) => (a.id === id ? account : a)) };
}

/** An account's field map (the first one's too, kept beside its label), or none: it goes with the account. */
export function setFieldMap(stored: StoredAccounts, id: string, fieldMap: FieldMap | undefined): StoredAccounts {
  if (id === DEFAULT_ACCOUNT_ID) {
    const { defaultFieldMap: _old, ...rest } = stored;
    return fieldMap ? { ...rest, defaultFieldMap: fieldMap } : rest;
  }
  if (!stored.accounts.some((a) => a.id === id)) throw new RangeError('no such account');
  const without = ({ fieldMap: _old, ...a }: AccountRecord): AccountRecord => (fieldMap ? { ...a, fieldMap } : a);
  return { ...stored, accounts: stored.accounts.map((a) => (a.id === id ? without(a) : a)) };
}

// `globalState` has no change event across windows, `secrets.onDidChange` has. The value is no secret: the list's
// digest (is the list read already the one announced?) and a counter (each write is a change).
export const CHANGE_MARKER_SECRET = 'hostingAccount.accountsChanged';
const MAX_MARKER_LENGTH = 64;

/** FNV-1a over the JSON: not a security check. */
export function digestOf(stored: StoredAccounts): string {
  let hash = 0x811c9dc5;
  const text = JSON.stringify(stored);
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

export function markerOf(stored: StoredAccounts, counter: number): string {
  return `${digestOf(stored)}:${Math.max(0, Math.floor(counter)).toString(36)}`;
}

export function announcedDigest(marker: unknown): string | undefined {
  if (typeof marker !== 'string' || marker.length > MAX_MARKER_LENGTH) return undefined;
  const digest = marker.split(':', 1)[0] ?? '';
  return /^[0-9a-z]{1,8}$/.test(digest) ? digest : undefined;
}

export function removeAccount(stored: StoredAccounts, id: string): StoredAccounts {
  return { ...stored, accounts: stored.accounts.filter((a) => a.id !== id) };
}

export function newAccountId(stored: StoredAccounts, random: () => number = Math.random): string {
  for (;;) {
    const id = Math.floor(random() * 36 ** 8)
      .toString(36)
      .padStart(8, '0');
    if (id !== DEFAULT_ACCOUNT_ID && !stored.accounts.some((a) => a.id === id)) return id;
  }
}

export function nameKey(label: string): string {
  return (cleanLabel(label) ?? '').toLowerCase();
}

function cleanLabel(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Cut first, then clean, then trim.
  let text = '';
  for (const char of value.slice(0, MAX_LABEL_LENGTH * 2)) {
    const code = char.codePointAt(0) ?? 0;
    text += code < 0x20 || (code >= 0x7f && code < 0xa0) ? ' ' : char;
  }
  text = text.trim().replace(/ {2,}/g, ' ');
  return text ? Array.from(text).slice(0, MAX_LABEL_LENGTH).join('').trim() : undefined;
}

function validUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2048) return undefined;
  try {
    return parseBaseUrl(value).href;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
