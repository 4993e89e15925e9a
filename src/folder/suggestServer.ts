/**
 * Which server a folder seems to belong to: only when exactly one server, across every account, matches what the
 * folder's sources name. The folder's own sources (its Remote-SSH host, its git remotes) come first; the machine-wide
 * ssh config is heard only when they match no server at all, since it lists every server of the user, not this
 * folder's. Matching is exact: a host equal to one of a server's addresses, or to its name when that is a host name.
 */
import { type Candidate, type CandidateSource } from './candidates';
import { hostKey } from '../ssh/hostKey';
import { type FolderServer } from './servers';

export type MatchedBy = 'address' | 'name';

export interface ServerMatch {
  readonly candidate: Candidate;
  readonly by: MatchedBy;
}

export type NoSuggestion = 'noCandidates' | 'noMatch' | 'several';

export type Suggestion =
  | {
      readonly kind: 'one';
      readonly server: FolderServer;
      /** Every source that named it, in the order of the tiers: for the wording. */
      readonly sources: readonly CandidateSource[];
      readonly matches: readonly ServerMatch[];
    }
  | {
      readonly kind: 'none';
      readonly reason: NoSuggestion;
      /** With `several`: how many servers matched. */ readonly servers?: number;
    };

export const SOURCE_TIERS: ReadonlyArray<readonly CandidateSource[]> = [['remoteSsh', 'gitRemote'], ['sshConfig']];

export function suggestServer(candidates: readonly Candidate[], servers: readonly FolderServer[]): Suggestion {
  if (!candidates.length) return { kind: 'none', reason: 'noCandidates' };
  const index = indexServers(servers, new Set(candidates.map((candidate) => candidate.host)));
  for (const tier of SOURCE_TIERS) {
    const found = new Map<string, { server: FolderServer; matches: ServerMatch[] }>();
    for (const candidate of candidates) {
      if (!tier.includes(candidate.source)) continue;
      for (const [server, by] of index.get(candidate.host) ?? []) {
        const id = serverId(server);
        const entry = found.get(id) ?? { server, matches: [] };
        found.set(id, entry);
        entry.matches.push({ candidate, by });
      }
    }
    if (found.size > 1) return { kind: 'none', reason: 'several', servers: found.size };
    const [only] = found.values();
    if (only) {
      const sources = tier.filter((source) => only.matches.some((m) => m.candidate.source === source));
      return { kind: 'one', server: only.server, sources, matches: only.matches };
    }
  }
  return { kind: 'none', reason: 'noMatch' };
}

/**
 * The servers each candidate host names, each once (by address rather than by name when both). Only the servers that
 * match are indexed: with twenty accounts of ten thousand servers, a full index would cost more than all the rest.
 */
function indexServers(
  servers: readonly FolderServer[],
  hosts: ReadonlySet<string>,
): Map<string, Map<FolderServer, MatchedBy>> {
  const index = new Map<string, Map<FolderServer, MatchedBy>>();
  // The last group of each IPv6 candidate: an address spelled another way is parsed only when its last group fits.
  const lastGroups = new Set<number>();
  for (const host of hosts) if (host.includes(':')) lastGroups.add(lastGroup(host));
  const keyOf = (text: string): string | undefined => {
    if (text.length > 253) return undefined;
    const lower = text.toLowerCase();
    // A host already in its compared form needs one lookup; only IPv6 may be written another way.
    if (hosts.has(lower)) return hostKey(text) === lower ? lower : undefined;
    if (!lastGroups.size || !text.includes(':')) return undefined;
    const group = lastGroup(lower);
    if (group >= 0 && !lastGroups.has(group)) return undefined;
    const key = hostKey(text);
    return key !== undefined && hosts.has(key) ? key : undefined;
  };
  const add = (key: string | undefined, server: FolderServer, by: MatchedBy): void => {
    if (key === undefined) return;
    const named = index.get(key) ?? new Map<FolderServer, MatchedBy>();
    index.set(key, named);
    if (!named.has(server)) named.set(server, by);
  };
  for (const server of servers) {
    for (const address of server.addresses) add(keyOf(address), server, 'address');
    add(keyOf(server.name), server, 'name');
  }
  return index;
}

/** The value of an IPv6 address's last 16 bits as written; -1 when they are not one hex group (`::`, a dotted tail). */
function lastGroup(address: string): number {
  const tail = address.slice(address.lastIndexOf(':') + 1);
  return /^[\da-f]{1,4}$/.test(tail) ? parseInt(tail, 16) : -1;
}

function serverId(server: FolderServer): string {
  return `${server.accountId}\n${server.orderId}`;
}
