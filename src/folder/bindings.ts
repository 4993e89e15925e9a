/**
 * Which server each workspace folder is bound to, and which suggestions were already made, as kept in
 * `workspaceState` (this machine only). Read back distrustfully, like the account list: the value may be damaged or
 * written by another version, so anything not exactly right is dropped, never repaired. Lists, oldest first, so the
 * least recently used go first when a bound is reached. Free of `vscode`.
 */

export const FOLDER_BINDINGS_KEY = 'hostingAccount.folderBindings';
export const FOLDER_SUGGESTIONS_KEY = 'hostingAccount.folderSuggestions';
export const MAX_BINDINGS = 100;
export const MAX_SUGGESTIONS = 400;

export interface FolderBinding {
  readonly accountId: string;
  /** Exactly as the API sent it. */
  readonly orderId: string;
  /** Milliseconds since the epoch. */
  readonly boundAt: number;
  /**
   * The server's name when it was last seen, so a folder whose server is gone (or not listed yet) can still say which
   * one it was. Server text: shown only through the UI's sinks, like the live name.
   */
  readonly name?: string;
}

export interface BoundFolder extends FolderBinding {
  /** The folder's URI as `Uri.toString()` writes it. */
  readonly folder: string;
}

export interface StoredBindings {
  readonly version: 1;
  readonly folders: readonly BoundFolder[];
}

export const NO_BINDINGS: StoredBindings = { version: 1, folders: [] };

const ACCOUNT_ID = /^[\da-z]{1,32}$/;
const MAX_FOLDER_URI = 2_048;
const MAX_ORDER_ID = 256;
export const MAX_BOUND_NAME = 120;

export function readBindings(raw: unknown): StoredBindings {
  if (!isObject(raw) || raw.version !== 1 || !Array.isArray(raw.folders)) return NO_BINDINGS;
  const folders = newestUnique(raw.folders.slice(-MAX_BINDINGS * 2), readBoundFolder, (entry) => entry.folder);
  return { version: 1, folders: folders.slice(-MAX_BINDINGS) };
}

export function bindingOf(stored: StoredBindings, folder: string): FolderBinding | undefined {
  const entry = stored.folders.find((candidate) => candidate.folder === folder);
  if (!entry) return undefined;
  const { accountId, orderId, boundAt, name } = entry;
  return name === undefined ? { accountId, orderId, boundAt } : { accountId, orderId, boundAt, name };
}

/**
 * Binds (or rebinds) a folder; throws a RangeError (for the log) when a value is not one that can be stored. A name
 * that could not be read back (too long, a lone surrogate) is left out: it only labels the binding.
 */
export function bindFolder(
  stored: StoredBindings,
  folder: string,
  server: { readonly accountId: string; readonly orderId: string; readonly name?: string },
  now: number,
): StoredBindings {
  const named = isName(server.name) ? { name: server.name } : {};
  const entry = readBoundFolder({
    folder,
    accountId: server.accountId,
    orderId: server.orderId,
    boundAt: now,
    ...named,
  });
  if (!entry) throw new RangeError('invalid folder binding');
  const others = stored.folders.filter((candidate) => candidate.folder !== folder);
  return { version: 1, folders: [...others, entry].slice(-MAX_BINDINGS) };
}

/**
 * The server's name as last seen, for every folder bound to it; the same record when nothing changes (the caller then
 * writes nothing), and no name at all when this one could not be read back.
 */
export function renameBound(stored: StoredBindings, accountId: string, orderId: string, name: string): StoredBindings {
  const fits = isName(name);
  let changed = false;
  const folders = stored.folders.map((entry) => {
    if (entry.accountId !== accountId || entry.orderId !== orderId || entry.name === (fits ? name : undefined)) {
      return entry;
    }
    changed = true;
    const { name: _old, ...rest } = entry;
    return fits ? { ...rest, name } : rest;
  });
  return changed ? { version: 1, folders } : stored;
}

export function unbindFolder(stored: StoredBindings, folder: string): StoredBindings {
  return { version: 1, folders: stored.folders.filter((entry) => entry.folder !== folder) };
}

/** Drops the bindings to an account's servers (when the account is removed) or to one server (when it is gone). */
export function unbindServers(stored: StoredBindings, accountId: string, orderId?: string): StoredBindings {
  return {
    version: 1,
    folders: stored.folders.filter(
      (entry) => entry.accountId !== accountId || (orderId !== undefined && entry.orderId !== orderId),
    ),
  };
}

function readBoundFolder(item: unknown): BoundFolder | undefined {
  if (!isObject(item)) return undefined;
  const { folder, accountId, orderId, boundAt, name } = item;
  if (!isFolderUri(folder) || !isAccountId(accountId) || !isOrderId(orderId) || !isTime(boundAt)) return undefined;
  if (name === undefined) return { folder, accountId, orderId, boundAt };
  return isName(name) ? { folder, accountId, orderId, boundAt, name } : undefined;
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_BOUND_NAME && isOrderId(value);
}

/**
 * A suggestion made once is never made again: from the folder's sources, once per folder; from the team file, once
 * per folder and account (the value names a server of that account).
 */
export type SuggestionKind = 'sources' | 'teamFile';

export interface SuggestedOnce {
  readonly folder: string;
  readonly kind: SuggestionKind;
  /** With `teamFile` only. */
  readonly accountId?: string;
  readonly at: number;
}

export interface StoredSuggestions {
  readonly version: 1;
  readonly entries: readonly SuggestedOnce[];
}

export const NO_SUGGESTIONS: StoredSuggestions = { version: 1, entries: [] };

export function readSuggestions(raw: unknown): StoredSuggestions {
  if (!isObject(raw) || raw.version !== 1 || !Array.isArray(raw.entries)) return NO_SUGGESTIONS;
  const entries = newestUnique(raw.entries.slice(-MAX_SUGGESTIONS * 2), readSuggested, suggestionKey);
  return { version: 1, entries: entries.slice(-MAX_SUGGESTIONS) };
}

export function wasSuggested(
  stored: StoredSuggestions,
  folder: string,
  kind: SuggestionKind,
  accountId?: string,
): boolean {
  const key = suggestionKey({ folder, kind, accountId });
  return stored.entries.some((entry) => suggestionKey(entry) === key);
}

export function noteSuggested(
  stored: StoredSuggestions,
  folder: string,
  kind: SuggestionKind,
  accountId: string | undefined,
  now: number,
): StoredSuggestions {
  const entry = readSuggested(
    accountId === undefined ? { folder, kind, at: now } : { folder, kind, accountId, at: now },
  );
  if (!entry) throw new RangeError('invalid suggestion record');
  const key = suggestionKey(entry);
  const others = stored.entries.filter((candidate) => suggestionKey(candidate) !== key);
  return { version: 1, entries: [...others, entry].slice(-MAX_SUGGESTIONS) };
}

function readSuggested(item: unknown): SuggestedOnce | undefined {
  if (!isObject(item)) return undefined;
  const { folder, kind, accountId, at } = item;
  if (!isFolderUri(folder) || !isTime(at)) return undefined;
  if (kind === 'sources' && accountId === undefined) return { folder, kind, at };
  if (kind === 'teamFile' && isAccountId(accountId)) return { folder, kind, accountId, at };
  return undefined;
}

function suggestionKey(entry: { folder: string; kind: SuggestionKind; accountId?: string }): string {
  return `${entry.kind}\n${entry.accountId ?? ''}\n${entry.folder}`;
}

/** The valid entries, the newest one of each key, oldest first. */
function newestUnique<T>(
  items: readonly unknown[],
  read: (item: unknown) => T | undefined,
  key: (t: T) => string,
): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const entry = read(items[i]);
    if (!entry || seen.has(key(entry))) continue;
    seen.add(key(entry));
    out.push(entry);
  }
  return out.reverse();
}

function isFolderUri(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_FOLDER_URI) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return false;
  }
  return /^[a-z][\d+.a-z-]{0,31}:/i.test(value);
}

function isAccountId(value: unknown): value is string {
  return typeof value === 'string' && ACCOUNT_ID.test(value);
}

/** What the normalisers accept as an id, and nothing repaired: not empty, at most 256, no lone surrogate. */
function isOrderId(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ORDER_ID) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = value.charCodeAt(i + 1);
    if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
