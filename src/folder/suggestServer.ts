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
  const index = indexServers(servers);
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

/** Host → the servers it names, each once (by address rather than by name when both). */
function indexServers(servers: readonly FolderServer[]): Map<string, Map<FolderServer, MatchedBy>> {
  const index = new Map<string, Map<FolderServer, MatchedBy>>();
  const add = (key: string | undefined, server: FolderServer, by: MatchedBy): void => {
    if (key === undefined) return;
    const named = index.get(key) ?? new Map<FolderServer, MatchedBy>();
    index.set(key, named);
    if (!named.has(server)) named.set(server, by);
  };
  for (const server of servers) {
    for (const address of server.addresses) add(hostKey(address), server, 'address');
    add(hostKey(server.name), server, 'name');
  }
  return index;
}

function serverId(server: FolderServer): string {
  return `${server.accountId}\n${server.orderId}`;
}
