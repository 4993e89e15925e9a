/**
 * Hosts that may say which server a folder belongs to, each with where it was found: the Remote-SSH host of the
 * window, the folder's git remotes, and the hosts of `~/.ssh/config`. A host given to ssh (a Remote-SSH host, an
 * `ssh://` or scp-like remote) is also looked up as an alias of the ssh config, as ssh itself would. Free of `vscode`.
 */
import { connectedHosts, type RemoteWindow } from '../ssh/remoteWindow';
import { type FileReader } from './fileReader';
import { readGitRemotes, remoteHost, type GitLimits, type GitRemotes } from './gitRemotes';
import { hostKey } from '../ssh/hostKey';
import {
  configuredHosts,
  effectiveHost,
  EMPTY_SSH_CONFIG,
  readSshConfig,
  type SshConfig,
  type SshConfigLimit,
  type SshConfigLimits,
} from './sshConfig';

/** `remoteSsh` and `gitRemote` speak of this folder; `sshConfig` only of this machine. */
export type CandidateSource = 'remoteSsh' | 'gitRemote' | 'sshConfig';

export interface Candidate {
  readonly source: CandidateSource;
  /** In `hostKey` form. */
  readonly host: string;
  /** The ssh alias (in `hostKey` form) the host was found through in `~/.ssh/config`, when it was. */
  readonly alias?: string;
  /** The git remote it came from, when its name is plain. */
  readonly remote?: string;
}

export const MAX_CANDIDATES = 256;

export function remoteSshCandidates(window: RemoteWindow, config: SshConfig = EMPTY_SSH_CONFIG): Candidate[] {
  const out: Candidate[] = [];
  for (const host of connectedHosts(window)) addSshHost(out, 'remoteSsh', host, config);
  return dedupe(out);
}

export function gitRemoteCandidates(remotes: GitRemotes, config: SshConfig = EMPTY_SSH_CONFIG): Candidate[] {
  const out: Candidate[] = [];
  for (const remote of remotes.remotes) {
    const found = remoteHost(remote.url);
    if (!found) continue;
    const extra = remote.name === undefined ? {} : { remote: remote.name };
    if (found.transport === 'ssh') addSshHost(out, 'gitRemote', found.host, config, extra);
    else out.push({ source: 'gitRemote', host: found.host, ...extra });
  }
  return dedupe(out);
}

export function sshConfigCandidates(config: SshConfig): Candidate[] {
  const out: Candidate[] = [];
  for (const { alias, hostName } of configuredHosts(config, MAX_CANDIDATES)) {
    out.push({ source: 'sshConfig', host: alias });
    if (hostName !== undefined) out.push({ source: 'sshConfig', host: hostName, alias });
  }
  return dedupe(out);
}

/** The host as given, and what the ssh config makes of it when that is another host. */
function addSshHost(
  out: Candidate[],
  source: CandidateSource,
  given: string,
  config: SshConfig,
  extra: { readonly remote?: string } = {},
): void {
  const host = hostKey(given);
  if (host === undefined) return;
  out.push({ source, host, ...extra });
  const target = effectiveHost(config, host);
  if (target !== undefined && target !== host) out.push({ source, host: target, alias: host, ...extra });
}

function dedupe(candidates: readonly Candidate[]): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const candidate of candidates) {
    const key = `${candidate.host}\n${candidate.alias ?? ''}\n${candidate.remote ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(candidate);
    if (out.length >= MAX_CANDIDATES) break;
  }
  return out;
}

export interface FolderLookup {
  /** The folder's path on this machine's file system; undefined when it is elsewhere (a remote window's folder). */
  readonly folder?: string;
  /** The user's home folder, for `~/.ssh/config`; undefined to leave the ssh config out. */
  readonly home?: string;
  readonly reader: FileReader;
  readonly window?: RemoteWindow;
  readonly now?: () => number;
  readonly sshLimits?: SshConfigLimits;
  readonly gitLimits?: GitLimits;
}

/** A bound that cut a read short: one of the ssh config's, or `git` for the git config. */
export type FolderReadLimit = SshConfigLimit | 'git';

export interface FolderCandidates {
  readonly candidates: readonly Candidate[];
  readonly limited: readonly FolderReadLimit[];
}

/** Every source at once, each bounded in bytes, lines, entries and time. */
export async function folderCandidates(lookup: FolderLookup): Promise<FolderCandidates> {
  const config =
    lookup.home === undefined
      ? EMPTY_SSH_CONFIG
      : await readSshConfig({ home: lookup.home, reader: lookup.reader, now: lookup.now }, lookup.sshLimits);
  const remotes: GitRemotes =
    lookup.folder === undefined
      ? { remotes: [], limited: false }
      : await readGitRemotes(lookup.folder, lookup.reader, { limits: lookup.gitLimits, now: lookup.now });
  const candidates = [
    ...(lookup.window ? remoteSshCandidates(lookup.window, config) : []),
    ...gitRemoteCandidates(remotes, config),
    ...sshConfigCandidates(config),
  ];
  const limited: FolderReadLimit[] = [...config.limited, ...(remotes.limited ? (['git'] as const) : [])];
  return { candidates: candidates.slice(0, MAX_CANDIDATES * 3), limited };
}
