import { type Order, type OrderState } from '../api/models';
import { connectedHosts, type RemoteWindow } from '../ssh/remoteWindow';
import { hostKey } from '../ssh/hostKey';
import { isSharedHost } from '../util/hostCheck';
import { plain } from '../util/serverText';
import { remoteHost } from './git';
import { effectiveHost, type SshConfig } from './sshConfig';

export interface FolderServer {
  readonly accountId: string;
  readonly orderId: string;
  readonly name: string;
  readonly addresses: readonly string[];
  readonly state?: OrderState;
}

export function folderServersOf(accountId: string, orders: readonly Order[]): FolderServer[] {
  return orders.map((order) => ({
    accountId,
    orderId: order.id,
    name: plain(order.label),
    addresses: (order.addresses?.length ? order.addresses : order.address ? [order.address] : []).slice(0, 16),
    state: order.state,
  }));
}

export type CandidateSource = 'remoteSsh' | 'gitRemote';

export interface Candidate {
  readonly source: CandidateSource;
  readonly host: string;
}

export function folderCandidates(
  window: RemoteWindow | undefined,
  urls: readonly string[],
  ssh: SshConfig,
): Candidate[] {
  const out = new Map<string, Candidate>();
  const add = (source: CandidateSource, host: string | undefined): void => {
    if (host !== undefined) out.set(`${source}\n${host}`, { source, host });
  };
  for (const host of window ? connectedHosts(window) : []) add('remoteSsh', effectiveHost(ssh, host));
  for (const url of urls) {
    const found = remoteHost(url);
    if (found) add('gitRemote', found.ssh ? effectiveHost(ssh, found.host) : found.host);
  }
  return [...out.values()];
}

export type Suggestion =
  | { readonly kind: 'one'; readonly server: FolderServer; readonly sources: readonly CandidateSource[] }
  | { readonly kind: 'none'; readonly reason: 'noCandidates' | 'noMatch' | 'several' };

export function suggestServer(candidates: readonly Candidate[], servers: readonly FolderServer[]): Suggestion {
  const hosts = new Map<string, Set<CandidateSource>>();
  for (const { host, source } of candidates) {
    if (hostKey(host) === host && !isSharedHost(host)) hosts.set(host, (hosts.get(host) ?? new Set()).add(source));
  }
  if (!hosts.size) return { kind: 'none', reason: 'noCandidates' };
  const found = new Map<string, { server: FolderServer; sources: Set<CandidateSource> }>();
  for (const server of servers) {
    for (const text of [...server.addresses, server.name]) {
      const sources = hosts.get(keyOf(text, hosts));
      if (!sources) continue;
      const id = `${server.accountId}\n${server.orderId}`;
      const entry = found.get(id) ?? { server, sources: new Set() };
      for (const source of sources) entry.sources.add(source);
      found.set(id, entry);
    }
  }
  const [only, ...more] = found.values();
  if (!only) return { kind: 'none', reason: 'noMatch' };
  if (more.length) return { kind: 'none', reason: 'several' };
  return {
    kind: 'one',
    server: only.server,
    sources: (['remoteSsh', 'gitRemote'] as const).filter((s) => only.sources.has(s)),
  };
}

function keyOf(text: string, hosts: ReadonlyMap<string, unknown>): string {
  const lower = text.toLowerCase();
  if (hosts.has(lower)) return lower;
  return text.includes(':') ? (hostKey(text) ?? '') : '';
}
