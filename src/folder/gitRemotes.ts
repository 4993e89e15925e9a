/**
 * The hosts a folder's git remotes point at, read from its git config (found through `.git`, a directory or a
 * `gitdir:` file as worktrees and submodules have). Git is never run and no URL is ever used to connect: a remote's
 * host is only compared with the servers' addresses, so a URL this reader does not understand (`ext::…`, options,
 * local paths) simply names no host. Free of `vscode`.
 */
import * as path from 'node:path';
import { checkHost } from '../util/hostCheck';
import { beforeDeadline, completeLines, type Deadline, deadlineIn, type FileReader } from './fileReader';
import { hostKey } from '../ssh/hostKey';

export interface GitRemote {
  /** The remote's name, when it is plain (letters, digits, `._/-`, at most 64); otherwise left out. */
  readonly name?: string;
  /** After `url.<base>.insteadOf` rewriting; as long as the config has it (at most MAX_URL). */
  readonly url: string;
}

export interface GitRemotes {
  readonly remotes: readonly GitRemote[];
  /** The config was longer than read, or had more remotes or rules than kept. */
  readonly limited: boolean;
}

export interface GitLimits {
  readonly maxConfigBytes: number;
  readonly maxLineLength: number;
  readonly maxUrls: number;
  readonly maxRewrites: number;
  readonly timeMs: number;
}

export const GIT_LIMITS: GitLimits = {
  maxConfigBytes: 128 * 1024,
  maxLineLength: 4_096,
  maxUrls: 64,
  maxRewrites: 64,
  timeMs: 1_000,
};

const MAX_URL = 2_048;
const MAX_POINTER_BYTES = 1_024;

const NO_REMOTES: GitRemotes = { remotes: [], limited: false };

/** The remotes of the repository the folder is (or is a worktree or submodule of); none when it is not one. */
export async function readGitRemotes(
  folder: string,
  reader: FileReader,
  options: { readonly limits?: GitLimits; readonly now?: () => number } = {},
): Promise<GitRemotes> {
  const limits = options.limits ?? GIT_LIMITS;
  const deadline = deadlineIn(limits.timeMs, options.now);
  const config = await gitConfigPath(folder, reader, deadline);
  if (!config) return NO_REMOTES;
  const read = await beforeDeadline(reader.readText(config, limits.maxConfigBytes), deadline, undefined);
  if (!read) return NO_REMOTES;
  const remotes = parseGitConfig(completeLines(read), limits);
  return read.truncated ? { ...remotes, limited: true } : remotes;
}

/**
 * `.git/config`, or for a `.git` file (`gitdir: <path>`) the config of the repository it points at: the common
 * directory of a worktree (its `commondir` file), or the submodule's own directory. One hop, a few bytes each.
 */
export async function gitConfigPath(
  folder: string,
  reader: FileReader,
  deadline: Deadline,
): Promise<string | undefined> {
  const dotGit = path.join(folder, '.git');
  const kind = await beforeDeadline(reader.kind(dotGit), deadline, undefined);
  if (kind === 'directory') return path.join(dotGit, 'config');
  if (kind !== 'file') return undefined;
  const gitDir = await pointer(reader, dotGit, folder, 'gitdir: ', deadline);
  if (!gitDir || (await beforeDeadline(reader.kind(gitDir), deadline, undefined)) !== 'directory') return undefined;
  const common = await pointer(reader, path.join(gitDir, 'commondir'), gitDir, '', deadline);
  if (common && (await beforeDeadline(reader.kind(common), deadline, undefined)) === 'directory') {
    return path.join(common, 'config');
  }
  return path.join(gitDir, 'config');
}

/** A one-line file naming a directory (after `prefix`), resolved against `base`; undefined unless exactly that. */
async function pointer(
  reader: FileReader,
  file: string,
  base: string,
  prefix: string,
  deadline: Deadline,
): Promise<string | undefined> {
  const read = await beforeDeadline(reader.readText(file, MAX_POINTER_BYTES), deadline, undefined);
  if (!read || read.truncated) return undefined;
  const line = read.text.replace(/\r?\n$/, '');
  if (!line.startsWith(prefix) || hasControl(line)) return undefined;
  const target = line.slice(prefix.length).trim();
  return target ? path.resolve(base, target) : undefined;
}

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

interface Rewrite {
  readonly base: string;
  readonly prefix: string;
  readonly push: boolean;
}

interface RawRemote {
  urls: string[];
  pushUrls: string[];
}

/**
 * Remote URLs and `insteadOf` rules from git config lines: `[remote "name"]` with `url`/`pushurl`, `[url "base"]`
 * with `insteadOf`/`pushInsteadOf`. Quotes, escapes, comments and continued lines as git reads them; a longer line
 * than the limit is skipped. `include` and `includeIf` are not followed.
 */
export function parseGitConfig(lines: readonly string[], limits: GitLimits = GIT_LIMITS): GitRemotes {
  const remotes = new Map<string, RawRemote>();
  const rewrites: Rewrite[] = [];
  let limited = false;
  let urlCount = 0;
  let section: { name: string; sub?: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] ?? '';
    // A value may go on over lines that end in a backslash.
    while (line.endsWith('\\') && i + 1 < lines.length && line.length <= limits.maxLineLength) {
      line = `${line.slice(0, -1)}${lines[++i] ?? ''}`;
    }
    if (line.length > limits.maxLineLength) {
      limited = true;
      continue;
    }
    const text = line.trimStart();
    if (!text || text.startsWith('#') || text.startsWith(';')) continue;
    if (text.startsWith('[')) {
      section = readSection(text);
      if (!section) continue;
      const rest = text.slice(text.indexOf(']') + 1).trimStart();
      if (!rest || rest.startsWith('#') || rest.startsWith(';')) continue;
      // `[remote "o"] url = …` on one line is valid git config.
      const entry = readEntry(rest);
      if (entry) urlCount += note(section, entry);
      continue;
    }
    const entry = section && readEntry(text);
    if (!section || !entry) continue;
    urlCount += note(section, entry);
    if (urlCount > limits.maxUrls || rewrites.length > limits.maxRewrites) {
      limited = true;
      break;
    }
  }
  return { remotes: resolveRemotes(remotes, rewrites, limits.maxUrls), limited };

  function note(where: { name: string; sub?: string }, entry: { key: string; value: string }): number {
    if (entry.value.length > MAX_URL) return 0;
    if (where.name === 'remote' && where.sub !== undefined && (entry.key === 'url' || entry.key === 'pushurl')) {
      const remote = remotes.get(where.sub) ?? { urls: [], pushUrls: [] };
      remotes.set(where.sub, remote);
      (entry.key === 'url' ? remote.urls : remote.pushUrls).push(entry.value);
      return 1;
    }
    if (where.name === 'url' && where.sub && (entry.key === 'insteadof' || entry.key === 'pushinsteadof')) {
      if (entry.value) rewrites.push({ base: where.sub, prefix: entry.value, push: entry.key === 'pushinsteadof' });
    }
    return 0;
  }
}

/** `[name]`, `[name "sub"]` (quotes and backslashes escaped) or the old `[name.sub]`; names in lower case. */
function readSection(text: string): { name: string; sub?: string } | undefined {
  let i = 1;
  while (i < text.length && /[\w.-]/.test(text[i] ?? '')) i++;
  const name = text.slice(1, i);
  if (!name) return undefined;
  if (text[i] === ']') {
    const dot = name.indexOf('.');
    return dot < 0
      ? { name: name.toLowerCase() }
      : { name: name.slice(0, dot).toLowerCase(), sub: name.slice(dot + 1).toLowerCase() };
  }
  if (text[i] !== ' ' && text[i] !== '\t') return undefined;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] !== '"') return undefined;
  let sub = '';
  for (i++; i < text.length; i++) {
    const char = text[i];
    if (char === '"') return text[i + 1] === ']' ? { name: name.toLowerCase(), sub } : undefined;
    if (char === '\\') i++;
    sub += text[i] ?? '';
  }
  return undefined;
}

/** `key = value` or a bare `key`; the value unquoted and unescaped, comments dropped, outer spaces trimmed. */
function readEntry(text: string): { key: string; value: string } | undefined {
  let i = 0;
  while (i < text.length && /[\w-]/.test(text[i] ?? '')) i++;
  const key = text.slice(0, i).toLowerCase();
  if (!key) return undefined;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (i >= text.length || text[i] === '#' || text[i] === ';') return { key, value: 'true' };
  if (text[i] !== '=') return undefined;
  let value = '';
  let quoted = false;
  // Spaces kept so far only count once something follows them (git trims the end, not the inside).
  let pendingSpace = '';
  for (i++; i < text.length; i++) {
    const char = text[i] ?? '';
    if (!quoted && (char === '#' || char === ';')) break;
    if (!quoted && (char === ' ' || char === '\t')) {
      if (value) pendingSpace += char;
      continue;
    }
    value += pendingSpace;
    pendingSpace = '';
    if (char === '"') {
      quoted = !quoted;
      continue;
    }
    if (char === '\\') {
      const next = text[++i];
      const escaped = next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '\b' : next;
      if (escaped === undefined || !'\\"\n\t\b'.includes(escaped)) return undefined;
      value += escaped;
      continue;
    }
    value += char;
  }
  return quoted ? undefined : { key, value };
}

/** Each remote's URLs as git uses them: `insteadOf` on every URL, `pushInsteadOf` on `url` when no `pushurl`. */
function resolveRemotes(remotes: Map<string, RawRemote>, rewrites: readonly Rewrite[], max: number): GitRemote[] {
  const out: GitRemote[] = [];
  const seen = new Set<string>();
  for (const [name, remote] of remotes) {
    const urls = [
      ...remote.urls.map((url) => rewrite(url, rewrites, false)),
      ...remote.pushUrls.map((url) => rewrite(url, rewrites, false)),
      ...(remote.pushUrls.length ? [] : remote.urls.map((url) => rewrite(url, rewrites, true))),
    ];
    for (const url of urls) {
      const key = `${name}\n${url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(isPlainRemoteName(name) ? { name, url } : { url });
      if (out.length >= max) return out;
    }
  }
  return out;
}

/** The longest matching prefix wins, as in git; push rules only when `push`, and over plain ones. */
function rewrite(url: string, rewrites: readonly Rewrite[], push: boolean): string {
  let best: Rewrite | undefined;
  for (const rule of rewrites) {
    if (rule.push !== push || !url.startsWith(rule.prefix)) continue;
    if (!best || rule.prefix.length > best.prefix.length) best = rule;
  }
  if (!best && push) return rewrite(url, rewrites, false);
  return best ? `${best.base}${url.slice(best.prefix.length)}` : url;
}

function isPlainRemoteName(name: string): boolean {
  return name.length > 0 && name.length <= 64 && /^[\w./-]+$/.test(name);
}

export type RemoteTransport = 'ssh' | 'http' | 'git';

export interface RemoteHost {
  /** In `hostKey` form. */
  readonly host: string;
  /** `ssh` for `ssh://` and scp-like `host:path`: ssh then reads the host as an alias of `~/.ssh/config`. */
  readonly transport: RemoteTransport;
}

const SCHEMES: Readonly<Record<string, RemoteTransport>> = {
  ssh: 'ssh',
  'git+ssh': 'ssh',
  'ssh+git': 'ssh',
  http: 'http',
  https: 'http',
  git: 'git',
};

/**
 * The host a remote URL names, the way git tells URL kinds apart: `scheme://[user@]host[:port]/…`, scp-like
 * `[user@]host:path` (no slash before the first colon) and `[host]:path`. Undefined for everything else: local paths,
 * `file://`, remote helpers (`ext::sh -c …`, `fd::`), an option (`--upload-pack=…`), spaces or control characters.
 */
export function remoteHost(url: string): RemoteHost | undefined {
  if (url.length === 0 || url.length > MAX_URL || url.startsWith('-') || hasControlOrSpace(url)) return undefined;
  const scheme = /^([a-z][\d+.a-z-]*):\/\//i.exec(url.slice(0, 40));
  if (scheme) {
    const transport = SCHEMES[(scheme[1] ?? '').toLowerCase()];
    if (!transport) return undefined;
    const rest = url.slice(scheme[0].length);
    const end = firstOf(rest, '/?#');
    return hostOfAuthority(rest.slice(0, end < 0 ? rest.length : end), transport);
  }
  // `helper::address` runs a remote helper (`ext::` runs a command): never a host. Git's test: scheme letters, then `::`.
  if (/^[a-z][\d+.a-z-]*::/i.test(url.slice(0, 64))) return undefined;
  return scpLike(url);
}

function hostOfAuthority(authority: string, transport: RemoteTransport): RemoteHost | undefined {
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  let host: string;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0 || !isPortPart(hostPort.slice(close + 1))) return undefined;
    host = hostPort.slice(1, close);
  } else {
    const colon = hostPort.indexOf(':');
    if (colon >= 0 && !isPortPart(hostPort.slice(colon))) return undefined;
    host = colon < 0 ? hostPort : hostPort.slice(0, colon);
  }
  const key = hostKey(host);
  return key === undefined ? undefined : { host: key, transport };
}

/** `` or `:` followed by a port number. */
function isPortPart(text: string): boolean {
  return text === '' || /^:\d{1,5}$/.test(text);
}

function scpLike(url: string): RemoteHost | undefined {
  const slash = firstOf(url, '/');
  // `[…]` may hold the colons of an IPv6 address or `host:port`; the path starts after `]:`.
  const at = url.indexOf('@');
  const bracket = url.indexOf('[');
  if (bracket >= 0 && (bracket === 0 || bracket === at + 1) && (slash < 0 || bracket < slash)) {
    const close = url.indexOf(']', bracket);
    if (close < 0 || url[close + 1] !== ':' || (slash >= 0 && slash < close)) return undefined;
    const inner = url.slice(bracket + 1, close);
    const plain = checkHost(inner);
    if (plain.ok) return hostOf(plain.host);
    const colon = inner.lastIndexOf(':');
    return colon > 0 && /^\d{1,5}$/.test(inner.slice(colon + 1)) ? hostOf(inner.slice(0, colon)) : undefined;
  }
  const colon = url.indexOf(':');
  if (colon < 0 || (slash >= 0 && slash < colon)) return undefined;
  const hostPart = url.slice(url.lastIndexOf('@', colon) + 1, colon);
  // One letter before the colon is a Windows drive (`C:\repo`, `C:/repo`), not a host.
  if (hostPart.length < 2) return undefined;
  return hostOf(hostPart);
}

function hostOf(host: string): RemoteHost | undefined {
  const key = hostKey(host);
  return key === undefined ? undefined : { host: key, transport: 'ssh' };
}

/** The first index of any of `chars`, or -1. */
function firstOf(text: string, chars: string): number {
  for (let i = 0; i < text.length; i++) if (chars.includes(text[i] ?? '')) return i;
  return -1;
}

function hasControlOrSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
}
