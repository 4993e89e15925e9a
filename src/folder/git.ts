import { hostKey } from '../ssh/hostKey';

type Event<T> = (listener: (value: T) => unknown) => { dispose(): unknown };

export interface GitRepository {
  readonly state: {
    readonly remotes: ReadonlyArray<{ readonly fetchUrl?: string; readonly pushUrl?: string }>;
    readonly onDidChange: Event<void>;
  };
}

export interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: Event<'uninitialized' | 'initialized'>;
  readonly repositories: readonly GitRepository[];
  readonly onDidOpenRepository: Event<GitRepository>;
  getRepository(uri: unknown): GitRepository | null;
}

export interface GitExtension {
  readonly enabled: boolean;
  readonly onDidChangeEnablement: Event<boolean>;
  getAPI(version: 1): GitApi;
}

const MAX_URLS = 64;
const MAX_URL = 2_048;

export class FolderGit {
  private api?: GitApi;
  private readonly subscriptions: Array<{ dispose(): unknown }> = [];

  constructor(private readonly changed: () => void) {}

  attach(extension: GitExtension | undefined): void {
    if (!extension) return;
    this.subscriptions.push(extension.onDidChangeEnablement(() => this.attachApi(extension)));
    this.attachApi(extension);
  }

  remoteUrls(folder: unknown): string[] {
    if (this.api?.state !== 'initialized') return [];
    const urls = new Set<string>();
    for (const remote of this.api.getRepository(folder)?.state.remotes ?? []) {
      for (const url of [remote.fetchUrl, remote.pushUrl]) if (url && url.length <= MAX_URL) urls.add(url);
    }
    return [...urls].slice(0, MAX_URLS);
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }

  private attachApi(extension: GitExtension): void {
    if (this.api || !extension.enabled) return;
    try {
      this.api = extension.getAPI(1);
    } catch {
      return;
    }
    const api = this.api;
    this.subscriptions.push(
      api.onDidChangeState(() => this.changed()),
      api.onDidOpenRepository((repository) => this.watch(repository)),
    );
    for (const repository of api.repositories) this.watch(repository);
    this.changed();
  }

  // A repository's state changes with every file saved.
  private watch(repository: GitRepository): void {
    const key = (): string => JSON.stringify(repository.state.remotes.map((r) => [r.fetchUrl, r.pushUrl]));
    let seen = key();
    this.subscriptions.push(
      repository.state.onDidChange(() => {
        if (seen === key()) return;
        seen = key();
        this.changed();
      }),
    );
    this.changed();
  }
}

export function remoteHost(url: string): { readonly host: string; readonly ssh: boolean } | undefined {
  if (url.length > MAX_URL || hasSpaceOrControl(url)) return undefined;
  const scheme = /^([a-z][\d+.a-z-]*):\/\//i.exec(url.slice(0, 40))?.[1]?.toLowerCase();
  let host: string;
  if (scheme !== undefined) {
    if (!['ssh', 'git+ssh', 'ssh+git', 'http', 'https', 'git'].includes(scheme)) return undefined;
    try {
      host = new URL(`http://${url.slice(scheme.length + 3)}`).hostname;
    } catch {
      return undefined;
    }
  } else {
    // scp-like: a colon before any slash; not `helper::address`, not a drive letter (`C:\repo`).
    const at = url.lastIndexOf('@', url.search(/[:/]/));
    const rest = url.slice(at + 1);
    const end = rest.startsWith('[') ? rest.indexOf(']') + 1 : rest.indexOf(':');
    if (end < 2 || rest[end] !== ':' || rest[end + 1] === ':' || rest.slice(0, end).includes('/')) return undefined;
    host = rest.slice(0, end);
  }
  if (host.startsWith('[')) host = host.slice(1, -1);
  // `[host:port]:path` is scp-like too.
  const key = hostKey(host) ?? (host.split(':').length === 2 ? hostKey(host.split(':')[0]) : undefined);
  return key === undefined ? undefined : { host: key, ssh: scheme === undefined || scheme.includes('ssh') };
}

function hasSpaceOrControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
}
