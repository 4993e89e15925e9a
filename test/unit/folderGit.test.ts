import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { nodeFileReader } from '../../src/folder/fileReader';
import { GIT_LIMITS, parseGitConfig, readGitRemotes, remoteHost } from '../../src/folder/gitRemotes';
import { MemoryFiles } from './helpers/memoryFiles';

const lines = (text: string): string[] => text.split('\n');

describe('folder sources: git remotes (unit)', () => {
  it('finds the host of every kind of remote URL git reads as one', () => {
    const cases: Array<[string, string, string]> = [
      ['ssh://deploy@203.0.113.5:2222/srv/app.git', '203.0.113.5', 'ssh'],
      ['ssh://Web-01.Example.com/app', 'web-01.example.com', 'ssh'],
      ['git+ssh://git@[2001:DB8:0::1]:22/app', '2001:db8::1', 'ssh'],
      ['ssh+git://host.example/app', 'host.example', 'ssh'],
      ['https://user:token@github.com/o/r.git', 'github.com', 'http'],
      ['http://203.0.113.5/app.git', '203.0.113.5', 'http'],
      ['HTTPS://git.example.com:8443/r?x#y', 'git.example.com', 'http'],
      ['git://git.example.org/r.git', 'git.example.org', 'git'],
      ['git@203.0.113.5:app.git', '203.0.113.5', 'ssh'],
      ['web-01:app.git', 'web-01', 'ssh'],
      ['deploy@web-01:/srv/app.git', 'web-01', 'ssh'],
      ['[web-01:2222]:app.git', 'web-01', 'ssh'],
      ['user@[2001:db8::1]:app.git', '2001:db8::1', 'ssh'],
      ['[2001:db8::7]:app.git', '2001:db8::7', 'ssh'],
    ];
    for (const [url, host, transport] of cases) assert.deepEqual(remoteHost(url), { host, transport }, url);
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
      'ext::ssh -oProxyCommand=x host',
      'fd::17',
      'persistent-https::https://example.com/r',
      '--upload-pack=touch /tmp/pwned',
      '-oProxyCommand=touch /tmp/pwned:repo',
      'ssh://-oProxyCommand=x/repo',
      'ssh://%2doProxyCommand=x/repo',
      'ssh://host:notaport/repo',
      'https://ex%61mple.com/r',
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

  it('reads remotes, quoting, comments, continued lines and insteadOf rules as git does', () => {
    const config = parseGitConfig(
      lines(
        [
          '[core]',
          '\trepositoryformatversion = 0',
          '[remote "origin"]',
          '\turl = git@github.com:team/app.git ; the main one',
          '\tfetch = +refs/heads/*:refs/remotes/origin/*',
          '[remote "deploy"] url = "root@203.0.113.5:/srv/app.git" # inline section',
          '[remote "two urls"]',
          '\turl = https://a.example/r',
          '\turl = short:r',
          '[Remote.legacy]',
          '\tURL = ssh://legacy.example/\\',
          'r.git',
          '[remote "mirror"]',
          '\turl = work:app.git',
          '\tpushurl = push-only.example:app.git',
          '[remote "pusher"]',
          '\turl = work:app.git',
          '[url "ssh://git@work.example/"]',
          '\tinsteadOf = work:',
          '[url "https://mirror.example/"]',
          '\tinsteadOf = short:',
          '[url "ssh://push.example/"]',
          '\tpushInsteadOf = work:',
          '[remote "we\\"ird name"]',
          '\turl = https://weird.example/r',
        ].join('\n'),
      ),
    );
    assert.equal(config.limited, false);
    assert.deepEqual(config.remotes, [
      { name: 'origin', url: 'git@github.com:team/app.git' },
      { name: 'deploy', url: 'root@203.0.113.5:/srv/app.git' },
      { url: 'https://a.example/r' },
      { url: 'https://mirror.example/r' },
      { name: 'legacy', url: 'ssh://legacy.example/r.git' },
      { name: 'mirror', url: 'ssh://git@work.example/app.git' },
      { name: 'mirror', url: 'push-only.example:app.git' },
      { name: 'pusher', url: 'ssh://git@work.example/app.git' },
      { name: 'pusher', url: 'ssh://push.example/app.git' },
      { url: 'https://weird.example/r' },
    ]);
  });

  it('drops what it cannot read exactly: bad escapes, open quotes, long lines', () => {
    const config = parseGitConfig(
      lines(
        [
          '[remote "a"]',
          '\turl = "open quote',
          '\turl = bad\\escape',
          `\turl = https://${'x'.repeat(10_000)}.example/r`,
          '\turl = https://kept.example/r',
          '[remote "b"',
          '\turl = https://no-section.example/r',
        ].join('\n'),
      ),
    );
    assert.deepEqual(config.remotes, [{ name: 'a', url: 'https://kept.example/r' }]);
    assert.equal(config.limited, true);
  });

  it('keeps at most the bounded number of URLs', () => {
    const text = ['[remote "many"]', ...Array.from({ length: 500 }, (_, i) => `url = https://h${i}.example/r`)];
    const config = parseGitConfig(text);
    assert.equal(config.remotes.length, GIT_LIMITS.maxUrls);
    assert.equal(config.limited, true);
  });

  it('finds the config of a repository, a worktree (commondir) and a submodule (gitdir)', async () => {
    const origin = '[remote "origin"]\n\turl = git@203.0.113.5:app.git\n';
    const files = new MemoryFiles({
      '/w/repo/.git/config': origin,
      '/w/repo/.git/worktrees/feature/commondir': '../..\n',
      '/w/repo/.git/worktrees/feature/HEAD': 'ref: refs/heads/feature\n',
      '/w/feature/.git': 'gitdir: /w/repo/.git/worktrees/feature\n',
      '/w/repo/sub/.git': 'gitdir: ../.git/modules/sub',
      '/w/repo/.git/modules/sub/config': '[remote "origin"]\n\turl = https://sub.example/s.git\n',
      '/w/odd/.git': 'not a pointer\n',
      '/w/dangling/.git': 'gitdir: /nowhere\n',
      '/w/junk/.git': Buffer.from([0x67, 0x69, 0x74, 0x64, 0x69, 0x72, 0x3a, 0x20, 0x00, 0xff]),
      '/w/plain/readme': 'no repository here',
    });
    const hosts = async (folder: string): Promise<string[]> =>
      (await readGitRemotes(folder, files)).remotes.map((r) => r.url);
    assert.deepEqual(await hosts('/w/repo'), ['git@203.0.113.5:app.git']);
    assert.deepEqual(await hosts('/w/feature'), ['git@203.0.113.5:app.git']);
    assert.deepEqual(await hosts('/w/repo/sub'), ['https://sub.example/s.git']);
    for (const folder of ['/w/odd', '/w/dangling', '/w/junk', '/w/plain', '/w/missing']) {
      assert.deepEqual(await readGitRemotes(folder, files), { remotes: [], limited: false }, folder);
    }
  });

  it('reads a huge config only up to its bound, and a pointer file of a few bytes only', async () => {
    const files = new MemoryFiles({
      '/w/big/.git/config': '[remote "o"]\n\turl = https://first.example/r\n' + '# pad\n'.repeat(3_000_000),
      '/w/ptr/.git': 'gitdir: ' + 'x'.repeat(1024 * 1024),
    });
    const big = await readGitRemotes('/w/big', files);
    assert.deepEqual(big, { remotes: [{ name: 'o', url: 'https://first.example/r' }], limited: true });
    assert.deepEqual(await readGitRemotes('/w/ptr', files), { remotes: [], limited: false });
    assert.ok(files.reads.every((r) => r.maxBytes <= GIT_LIMITS.maxConfigBytes));
  });

  it('stops waiting for a file system that never answers', async () => {
    const files = new MemoryFiles({ '/w/slow/.git/config': '' }).hang('/w/slow/.git/config');
    const started = Date.now();
    const remotes = await readGitRemotes('/w/slow', files, { limits: { ...GIT_LIMITS, timeMs: 50 } });
    assert.deepEqual(remotes, { remotes: [], limited: false });
    assert.ok(Date.now() - started < 2_000);
  });

  it('reads what real git writes, in a repository and in a worktree', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'git-remotes-'));
    try {
      const git = (...args: string[]): void => {
        execFileSync('git', ['-C', dir, ...args], {
          stdio: 'ignore',
          env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
        });
      };
      git('init', '-q', 'repo');
      git('-C', 'repo', 'remote', 'add', 'deploy', 'root@203.0.113.5:/srv/app.git');
      git('-C', 'repo', 'remote', 'add', 'hub', 'https://github.com/o/r.git');
      git('-C', 'repo', 'config', 'url.ssh://git@work.example/.insteadOf', 'work:');
      git('-C', 'repo', 'remote', 'add', 'work', 'work:app.git');
      git('-C', 'repo', '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '--allow-empty', '-m', 'x');
      git('-C', 'repo', 'worktree', 'add', '-q', '../tree');
      const expected = [
        { name: 'deploy', url: 'root@203.0.113.5:/srv/app.git' },
        { name: 'hub', url: 'https://github.com/o/r.git' },
        { name: 'work', url: 'ssh://git@work.example/app.git' },
      ];
      for (const folder of ['repo', 'tree']) {
        const remotes = await readGitRemotes(join(dir, folder), nodeFileReader);
        assert.deepEqual(remotes, { remotes: expected, limited: false }, folder);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
