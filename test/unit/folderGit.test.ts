import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FolderGit, type GitApi, type GitExtension, type GitRepository, remoteHost } from '../../src/folder/git';

type Listener<T> = (value: T) => unknown;

/** An event as VS Code's: subscribe, dispose; `fire` for the test. */
function event<T>(): { (listener: Listener<T>): { dispose(): void }; fire(value: T): void; count(): number } {
  const listeners = new Set<Listener<T>>();
  const subscribe = (listener: Listener<T>): { dispose(): void } => {
    listeners.add(listener);
    return { dispose: () => listeners.delete(listener) };
  };
  return Object.assign(subscribe, {
    fire: (value: T) => listeners.forEach((listener) => listener(value)),
    count: () => listeners.size,
  });
}

type Remotes = Array<{ fetchUrl?: string; pushUrl?: string }>;

/** A stand-in of the git extension's exports and API object (version 1): only what the extension reads of them. */
class StandInGit implements GitExtension, GitApi {
  readonly onDidChangeEnablement = event<boolean>();
  readonly onDidChangeState = event<'uninitialized' | 'initialized'>();
  readonly onDidOpenRepository = event<GitRepository>();
  private readonly repos = new Map<
    string,
    { state: { remotes: Remotes; onDidChange: ReturnType<typeof event<void>> } }
  >();
  state: 'uninitialized' | 'initialized' = 'initialized';
  enabled = true;
  apiCalls = 0;

  get repositories(): GitRepository[] {
    return [...this.repos.values()];
  }

  getAPI(): GitApi {
    this.apiCalls++;
    if (!this.enabled) throw new Error('Git model not found');
    return this;
  }

  getRepository(uri: unknown): GitRepository | null {
    return this.repos.get(String(uri)) ?? null;
  }

  open(folder: string, remotes: Remotes): void {
    const repository = { state: { remotes, onDidChange: event<void>() } };
    this.repos.set(folder, repository);
    this.onDidOpenRepository.fire(repository);
  }

  /** A status refresh: the repository's state changes, with these remotes (or the same ones). */
  refresh(folder: string, remotes?: Remotes): void {
    const repository = this.repos.get(folder);
    assert.ok(repository);
    if (remotes) repository.state.remotes = remotes;
    repository.state.onDidChange.fire();
  }
}

describe('folder sources: git remotes through the git extension (unit)', () => {
  it('finds the host of every kind of remote URL git reads as one', () => {
    const cases: Array<[string, string, boolean]> = [
      ['ssh://deploy@203.0.113.5:2222/srv/app.git', '203.0.113.5', true],
      ['ssh://Web-01.Example.com/app', 'web-01.example.com', true],
      ['git+ssh://git@[2001:DB8:0::1]:22/app', '2001:db8::1', true],
      ['ssh+git://host.example/app', 'host.example', true],
      ['https://user:token@example.com/o/r.git', 'example.com', false],
      ['http://203.0.113.5/app.git', '203.0.113.5', false],
      ['HTTPS://git.example.com:8443/r?x#y', 'git.example.com', false],
      ['git://git.example.org/r.git', 'git.example.org', false],
      ['git@203.0.113.5:app.git', '203.0.113.5', true],
      ['web-01:app.git', 'web-01', true],
      ['deploy@web-01:/srv/app.git', 'web-01', true],
      ['[web-01:2222]:app.git', 'web-01', true],
      ['user@[2001:db8::1]:app.git', '2001:db8::1', true],
      ['[2001:db8::7]:app.git', '2001:db8::7', true],
    ];
    for (const [url, host, ssh] of cases) assert.deepEqual(remoteHost(url), { host, ssh }, url);
  });

  it('names no host for local paths, remote helpers, options and anything odd', () => {
    for (const url of [
      '/srv/app.git',
      './app:with-colon',
      '../up.git',
      'C:\\repos\\app',
      'C:/repos/app',
      'file:///srv/app.git',
      'ext::sh -c touch% /tmp/pwned',
      'ext::ssh',
      'fd::17',
      'persistent-https::https://example.com/r',
      '--upload-pack=touch /tmp/pwned',
      '-oProxyCommand=x:repo',
      'ssh://-oProxyCommand=x/repo',
      'ssh://%2doProxyCommand=x/repo',
      'ssh://host:notaport/repo',
      'https://exam ple.com/r',
      'https://example.com\u0000.evil/r',
      'ftp://example.com/r',
      'unknown://example.com/r',
      'host name:repo',
      'xn--80ak6aa92e.com\u200b:repo',
      'ехаmple.com:repo',
      '[unclosed:repo',
      'git@:repo',
      '',
      `ssh://${'a'.repeat(5_000)}.com/r`,
    ]) {
      assert.equal(remoteHost(url), undefined, JSON.stringify(url.slice(0, 80)));
    }
  });

  it('never throws and never names a host checkHost would refuse (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc
            .tuple(
              fc.constantFrom('ssh://', 'https://', 'git@', '', '[', 'user@['),
              fc.string({ maxLength: 60 }),
              fc.constantFrom(':', ']:', '/', ''),
              fc.string({ maxLength: 20 }),
            )
            .map((parts) => parts.join('')),
        ),
        (url) => {
          const found = remoteHost(url);
          if (found) assert.ok(/^[\d.:a-z-]+$/.test(found.host) && !found.host.startsWith('-'), url);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it("reads a folder's fetch and push URLs from the git API, each once", () => {
    const git = new StandInGit();
    git.open('file:///w/app', [
      { fetchUrl: 'git@203.0.113.5:app.git', pushUrl: 'git@203.0.113.5:app.git' },
      { fetchUrl: 'https://example.com/app.git', pushUrl: 'ssh://deploy@198.51.100.7/app.git' },
      {},
    ]);
    const folders = new FolderGit(() => undefined);
    folders.attach(git);
    assert.deepEqual(folders.remoteUrls('file:///w/app'), [
      'git@203.0.113.5:app.git',
      'https://example.com/app.git',
      'ssh://deploy@198.51.100.7/app.git',
    ]);
    assert.deepEqual(folders.remoteUrls('file:///w/other'), [], 'a folder in no repository');
  });

  it('says nothing, quietly, with no git extension, git disabled, or git not initialized yet', () => {
    let changes = 0;
    const none = new FolderGit(() => changes++);
    none.attach(undefined);
    assert.deepEqual(none.remoteUrls('file:///w/app'), []);

    const git = new StandInGit();
    git.enabled = false;
    git.state = 'uninitialized';
    git.open('file:///w/app', [{ fetchUrl: 'git@203.0.113.5:app.git' }]);
    const folders = new FolderGit(() => changes++);
    folders.attach(git);
    assert.equal(git.apiCalls, 0, 'a disabled git is not asked for its API');
    assert.deepEqual(folders.remoteUrls('file:///w/app'), []);

    git.enabled = true;
    git.onDidChangeEnablement.fire(true);
    assert.deepEqual(folders.remoteUrls('file:///w/app'), [], 'enabled, not initialized: still nothing');
    const before = changes;
    git.state = 'initialized';
    git.onDidChangeState.fire('initialized');
    assert.ok(changes > before, 'initialized is news');
    assert.deepEqual(folders.remoteUrls('file:///w/app'), ['git@203.0.113.5:app.git']);
    git.onDidChangeEnablement.fire(true);
    assert.equal(git.apiCalls, 1, 'the API is taken once');
  });

  it('tells of a repository opened and of remotes changed, not of every status refresh; lets go when disposed', () => {
    const git = new StandInGit();
    let changes = 0;
    const folders = new FolderGit(() => changes++);
    folders.attach(git);
    changes = 0;
    git.open('file:///w/app', []);
    assert.equal(changes, 1, 'a repository opened');
    git.refresh('file:///w/app');
    assert.equal(changes, 1, 'a status refresh with the same remotes');
    git.refresh('file:///w/app', [{ fetchUrl: 'web-01:app.git' }]);
    assert.equal(changes, 2, 'a remote added');
    assert.deepEqual(folders.remoteUrls('file:///w/app'), ['web-01:app.git']);
    folders.dispose();
    assert.equal(git.onDidOpenRepository.count() + git.onDidChangeState.count() + git.onDidChangeEnablement.count(), 0);
  });

  it('keeps at most 64 URLs, none longer than 2,048 characters', () => {
    const git = new StandInGit();
    const remotes = Array.from({ length: 100 }, (_, i) => ({ fetchUrl: `git@h${i}.example:r.git` }));
    git.open('file:///w/app', [{ fetchUrl: `git@${'a'.repeat(3_000)}:r.git` }, ...remotes]);
    const folders = new FolderGit(() => undefined);
    folders.attach(git);
    const urls = folders.remoteUrls('file:///w/app');
    assert.equal(urls.length, 64);
    assert.equal(urls[0], 'git@h0.example:r.git');
  });
});
