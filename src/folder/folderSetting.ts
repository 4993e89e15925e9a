// A server's name or id: what looks like a URL, a path or a key is refused.
import { type FolderServer } from './suggestServer';

export const FOLDER_SERVER_SETTING = 'hostingAccount.folderServer';

export const MAX_FOLDER_SERVER_LENGTH = 256;

export type FolderServerProblem =
  'notText' | 'empty' | 'tooLong' | 'hiddenCharacters' | 'surroundingSpace' | 'url' | 'userAtHost' | 'path' | 'keyLike';

export type FolderServerCheck =
  { readonly ok: true; readonly value: string } | { readonly ok: false; readonly problem: FolderServerProblem };

export function checkFolderServer(value: unknown): FolderServerCheck {
  if (typeof value !== 'string') return refuse('notText');
  // Cut before anything scans it.
  if (value.length > MAX_FOLDER_SERVER_LENGTH) return refuse('tooLong');
  if (HIDDEN.test(value)) return refuse('hiddenCharacters');
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

const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

const KEY_SCHEME = /^(?:bearer|basic|token)\s+[\w+./=-]{16}|^-----begin/i;
const KEY_PREFIX =
  /^(?:[spr]k_(?:live|test)_|sk-(?:proj|ant)-|gh[opsu]_|github_pat_|glpat-|xox[abeprs]-|(?:AKIA|ASIA)[\dA-Z]{16})/;
// UUIDs and worded names pass.
export function isKeyLike(value: string): boolean {
  const start = value.slice(0, 40);
  if (KEY_SCHEME.test(start) || KEY_PREFIX.test(start)) return true;
  const runs = value.match(/[\da-z+=]{32,}/gi) ?? [];
  return runs.some((run) => /\d/.test(run) && /[a-z+=]/i.test(run));
}

export type FolderServerResolution =
  | { readonly kind: 'found'; readonly server: FolderServer }
  | { readonly kind: 'invalid'; readonly problem: FolderServerProblem }
  | { readonly kind: 'noMatch' }
  | { readonly kind: 'several' };

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
