// Read back distrustfully: anything not exactly right is dropped, never repaired.

export const FOLDER_BINDINGS_KEY = 'hostingAccount.folderBindings';
export const FOLDER_SUGGESTIONS_KEY = 'hostingAccount.folderSuggestions';
export const MAX_BINDINGS = 100;
export const MAX_SUGGESTIONS = 400;

export interface FolderBinding {
  readonly accountId: string;
  readonly orderId: string;
  readonly boundAt: number;
  // To say which server it was once it is gone.
  readonly name?: string;
}

export interface BoundFolder extends FolderBinding {
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
const MAX_BOUND_NAME = 120;

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

export function unbindAccount(stored: StoredBindings, accountId: string): StoredBindings {
  return { version: 1, folders: stored.folders.filter((entry) => entry.accountId !== accountId) };
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

export type SuggestionKind = 'sources' | 'teamFile';

export interface SuggestedOnce {
  readonly folder: string;
  readonly kind: SuggestionKind;
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
  if (typeof value !== 'string' || value.length > MAX_FOLDER_URI || /[\p{Cc} ]/u.test(value)) return false;
  return /^[a-z][\d+.a-z-]{0,31}:/i.test(value);
}

function isAccountId(value: unknown): value is string {
  return typeof value === 'string' && ACCOUNT_ID.test(value);
}

function isOrderId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ORDER_ID && !/\p{Cs}/u.test(value);
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
