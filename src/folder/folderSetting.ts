/**
 * `hostingAccount.folderServer`, the value a team commits in `.vscode/settings.json`: a server's name or id, nothing
 * else. It only ever picks among the servers of accounts the user already has, so it cannot make the extension talk to
 * another origin or use another key; values that look like an address, a URL, a path or a key are refused anyway, so a
 * pasted key is caught before it is committed again and the value never reads like something it is not.
 */
import { type FolderServer } from './suggestServer';

export const FOLDER_SERVER_SETTING = 'hostingAccount.folderServer';

/** An order id is at most 256 characters (the normalisers' bound); a label is shorter. */
export const MAX_FOLDER_SERVER_LENGTH = 256;

export type FolderServerProblem =
  | 'notText'
  | 'empty'
  | 'tooLong'
  /** Control, format or invisible characters (bidi overrides, zero-width spaces). */
  | 'hiddenCharacters'
  /** Spaces around the value: the match is exact, so they would make it match nothing. */
  | 'surroundingSpace'
  | 'url'
  | 'userAtHost'
  | 'path'
  | 'keyLike';

export type FolderServerCheck =
  { readonly ok: true; readonly value: string } | { readonly ok: false; readonly problem: FolderServerProblem };

export function checkFolderServer(value: unknown): FolderServerCheck {
  if (typeof value !== 'string') return refuse('notText');
  // Cut before anything scans it.
  if (value.length > MAX_FOLDER_SERVER_LENGTH) return refuse('tooLong');
  if (hasHiddenCharacters(value)) return refuse('hiddenCharacters');
  if (value.trim() === '') return refuse('empty');
  if (value.trim() !== value) return refuse('surroundingSpace');
  if (isKeyLike(value)) return refuse('keyLike');
  if (value.includes('://') || /^[a-z][\d+.a-z-]{0,31}:\S/i.test(value)) return refuse('url');
  if (value.includes('@')) return refuse('userAtHost');
  if (value.includes('/') || value.includes('\\') || value.startsWith('~')) return refuse('path');
  return { ok: true, value };
}

function refuse(problem: FolderServerProblem): FolderServerCheck {
  return { ok: false, problem };
}

function hasHiddenCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (
      code < 0x20 ||
      (code >= 0x7f && code < 0xa0) ||
      (code >= 0x200b && code <= 0x200f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2060 && code <= 0x2069) ||
      code === 0xfeff ||
      code === 0x00ad ||
      (code >= 0xd800 && code <= 0xdfff && !isPairedSurrogate(text, i))
    ) {
      return true;
    }
  }
  return false;
}

function isPairedSurrogate(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff;
  }
  const previous = text.charCodeAt(i - 1);
  return previous >= 0xd800 && previous <= 0xdbff;
}

/** What people paste with a key: an auth scheme and its token, a PEM block. */
const KEY_SCHEME = /^(?:bearer|basic|token)\s+[\w+./=-]{16}|^-----begin/i;
/** Well-known token formats, by the prefixes their issuers give them. */
const KEY_PREFIX =
  /^(?:[spr]k_(?:live|test)_|sk-(?:proj|ant)-|gh[opsu]_|github_pat_|glpat-|xox[abeprs]-|(?:AKIA|ASIA)[\dA-Z]{16})/;
/** A run this long of letters and digits with no separator is no one's server name; it is how keys look. */
const KEY_RUN = 32;

/**
 * Long unbroken runs of letters and digits with both in them (`demo-0123…cdef`, base64 and hex keys), or a known key
 * prefix. Ids made of short groups (UUIDs, numbers) and names made of words pass.
 */
export function isKeyLike(value: string): boolean {
  const start = value.slice(0, 40);
  if (KEY_SCHEME.test(start) || KEY_PREFIX.test(start)) return true;
  let run = 0;
  let letters = false;
  let digits = false;
  for (let i = 0; i <= value.length; i++) {
    const char = value[i] ?? ' ';
    const letter = /[a-z+=]/i.test(char);
    const digit = char >= '0' && char <= '9';
    if (letter || digit) {
      run++;
      letters ||= letter;
      digits ||= digit;
      continue;
    }
    if (run >= KEY_RUN && letters && digits) return true;
    run = 0;
    letters = false;
    digits = false;
  }
  return false;
}

export type FolderServerResolution =
  | { readonly kind: 'found'; readonly server: FolderServer }
  | { readonly kind: 'invalid'; readonly problem: FolderServerProblem }
  | { readonly kind: 'noMatch' }
  /** Several servers of one account have this id or name: the value does not say which. */
  | { readonly kind: 'several' };

/**
 * The server the value names, read for each account in turn (`servers` in the accounts' order): that account's
 * server of this exact id, else of this exact name. Another account's servers never count, ids least of all.
 */
export function resolveFolderServer(value: unknown, servers: readonly FolderServer[]): FolderServerResolution {
  const check = checkFolderServer(value);
  if (!check.ok) return { kind: 'invalid', problem: check.problem };
  for (const accountId of new Set(servers.map((server) => server.accountId))) {
    const mine = servers.filter((server) => server.accountId === accountId);
    for (const hits of [
      mine.filter((server) => server.orderId === check.value),
      mine.filter((server) => server.name === check.value),
    ]) {
      if (hits.length > 1) return { kind: 'several' };
      if (hits[0]) return { kind: 'found', server: hits[0] };
    }
  }
  return { kind: 'noMatch' };
}
