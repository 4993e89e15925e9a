import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { nodeFileReader } from '../../src/folder/fileReader';
import {
  configuredHosts,
  effectiveHost,
  globMatch,
  includeTarget,
  MatchBudget,
  patternsMatch,
  readSshConfig,
  splitLine,
  SSH_CONFIG_LIMITS,
  type SshConfig,
  type SshConfigLimits,
} from '../../src/folder/sshConfig';
import { MemoryFiles } from './helpers/memoryFiles';

const HOME = '/home/dev';
const CONFIG = `${HOME}/.ssh/config`;

async function configOf(
  files: Record<string, string | Buffer>,
  limits?: Partial<SshConfigLimits>,
): Promise<{ config: SshConfig; files: MemoryFiles }> {
  const memory = new MemoryFiles(files);
  const config = await readSshConfig({ home: HOME, reader: memory }, { ...SSH_CONFIG_LIMITS, ...limits });
  return { config, files: memory };
}

async function hostsOf(text: string): Promise<ReturnType<typeof configuredHosts>> {
  return configuredHosts((await configOf({ [CONFIG]: text })).config);
}

describe('folder sources: ~/.ssh/config (unit)', () => {
  it('reads Host aliases and the HostName each stands for, in order, each once', async () => {
    const hosts = await hostsOf(
      [
        '# my servers',
        'Host web-01 web',
        '  HostName 203.0.113.5',
        '  User deploy',
        '',
        'Host staging',
        '\tHostName = Staging.Example.COM',
        'Host db.example.com',
        'Host web-01',
        '  HostName 198.51.100.9',
      ].join('\n'),
    );
    assert.deepEqual(hosts, [
      { alias: 'web-01', hostName: '203.0.113.5' },
      { alias: 'web', hostName: '203.0.113.5' },
      { alias: 'staging', hostName: 'staging.example.com' },
      { alias: 'db.example.com' },
    ]);
  });

  it('reads keywords in any case, `=` forms, quotes, trailing comments and CRLF lines', async () => {
    const hosts = await hostsOf(
      ['HOST=alpha "beta"  # two aliases', 'hostname="2001:DB8:0:0::1"', 'Host gamma', 'HostName\t10.0.0.7\r'].join(
        '\r\n',
      ),
    );
    assert.deepEqual(hosts, [
      { alias: 'alpha', hostName: '2001:db8::1' },
      { alias: 'beta', hostName: '2001:db8::1' },
      { alias: 'gamma', hostName: '10.0.0.7' },
    ]);
  });

  it('gives wildcard blocks to the hosts they match, the first HostName winning, negations honoured', async () => {
    const { config } = await configOf({
      [CONFIG]: [
        'Host *.prod !bastion.prod',
        '  HostName %h.internal.example',
        'Host bastion.prod',
        '  HostName 192.0.2.1',
        'Host web-?',
        '  HostName 192.0.2.2',
        'Host web-1',
        '  HostName 192.0.2.3',
        'Host pct',
        '  HostName 100%%.example',
        'Host tokens',
        '  HostName %p.example',
      ].join('\n'),
    });
    assert.equal(effectiveHost(config, 'db.prod'), 'db.prod.internal.example');
    assert.equal(effectiveHost(config, 'BASTION.prod'), '192.0.2.1');
    assert.equal(effectiveHost(config, 'web-1'), '192.0.2.2', 'the first block that applies wins, as in ssh');
    assert.equal(effectiveHost(config, 'web-10'), 'web-10', 'no block applies: the alias itself');
    // `100%` is no host; another token means the host is not known here.
    assert.equal(effectiveHost(config, 'pct'), undefined);
    assert.equal(effectiveHost(config, 'tokens'), undefined);
    assert.deepEqual(
      configuredHosts(config).map((h) => h.alias),
      ['bastion.prod', 'web-1', 'pct', 'tokens'],
      'wildcards and negations are no aliases',
    );
  });

  it('resolves like a plain walk over every block, lookups and all (property)', () => {
    const pattern = fc.oneof(
      fc.constantFrom('a', 'b', 'web-1', 'web-2', '*', 'web-*', '?', '!a', '!web-*', '*-1'),
      fc.constantFrom('A', 'WEB-1'),
    );
    const blockArb = fc.record({
      patterns: fc.array(pattern, { minLength: 1, maxLength: 3 }),
      within: fc.array(fc.array(pattern, { minLength: 1, maxLength: 2 }), { maxLength: 1 }),
      hostName: fc.option(fc.constantFrom('192.0.2.1', '192.0.2.2', '%h.example', '%p'), { nil: undefined }),
    });
    const walk = (config: SshConfig, alias: string): string | undefined => {
      for (const block of config.blocks) {
        if (block.hostName === undefined) continue;
        if (!patternsMatch(block.patterns, alias) || !block.within.every((p) => patternsMatch(p, alias))) continue;
        return block.hostName === '%p' ? undefined : block.hostName.replace('%h', alias);
      }
      return alias;
    };
    fc.assert(
      fc.property(
        fc.array(blockArb, { maxLength: 8 }),
        fc.constantFrom('a', 'b', 'web-1', 'web-2', 'c'),
        (b, alias) => {
          const config: SshConfig = {
            blocks: b.map((block) => ({ ...block, patterns: block.patterns.map((p) => p.toLowerCase()) })),
            files: 1,
            skippedIncludes: 0,
            limited: [],
          };
          assert.equal(effectiveHost(config, alias), walk(config, alias));
          const listed = configuredHosts(config);
          for (const host of listed) {
            // An alias whose host is not known is still listed, alone.
            const target = walk(config, host.alias);
            assert.equal(host.hostName, target === host.alias ? undefined : target);
          }
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('skips Match blocks whole and runs nothing', async () => {
    const { config } = await configOf({
      [CONFIG]: [
        'Match exec "touch /tmp/pwned" host web',
        '  HostName 192.0.2.66',
        '  Include evil.conf',
        'Host web',
        '  HostName 192.0.2.10',
        'Match all',
        '  HostName 192.0.2.67',
      ].join('\n'),
      [`${HOME}/.ssh/evil.conf`]: 'Host web\n  HostName 192.0.2.68\n',
    });
    assert.equal(effectiveHost(config, 'web'), '192.0.2.10');
    assert.equal(effectiveHost(config, 'other'), 'other');
    assert.equal(config.skippedIncludes, 1);
    assert.equal(config.files, 1);
  });

  it('follows Include: relative to ~/.ssh, `~/`, `*` in the last segment (sorted, no dot files), in place', async () => {
    const { config, files } = await configOf({
      [CONFIG]: ['Include config.d/*.conf ~/work/ssh.conf', 'Host late', '  HostName 192.0.2.99'].join('\n'),
      [`${HOME}/.ssh/config.d/b.conf`]: 'Host b\n  HostName 192.0.2.2\n',
      [`${HOME}/.ssh/config.d/a.conf`]: 'Host a\n  HostName 192.0.2.1\nHost late\n  HostName 192.0.2.98\n',
      [`${HOME}/.ssh/config.d/.hidden.conf`]: 'Host hidden\n',
      [`${HOME}/.ssh/config.d/notes.txt`]: 'Host notes\n',
      [`${HOME}/work/ssh.conf`]: 'Host w\n  HostName 192.0.2.3\n',
    });
    assert.deepEqual(configuredHosts(config), [
      { alias: 'a', hostName: '192.0.2.1' },
      { alias: 'late', hostName: '192.0.2.98' },
      { alias: 'b', hostName: '192.0.2.2' },
      { alias: 'w', hostName: '192.0.2.3' },
    ]);
    assert.equal(config.files, 4);
    assert.ok(!files.reads.some((r) => r.path.includes('hidden') || r.path.endsWith('notes.txt')));
  });

  it('applies an Include inside a Host block only to the hosts of that block, then goes on with the block', async () => {
    const { config } = await configOf({
      [CONFIG]: ['Host web-*', '  Include web.conf', '  HostName 192.0.2.50', 'Host *', '  User me'].join('\n'),
      [`${HOME}/.ssh/web.conf`]: 'HostName 192.0.2.40\nHost web-special\n  HostName 192.0.2.41\n',
    });
    assert.equal(effectiveHost(config, 'web-01'), '192.0.2.40');
    assert.equal(effectiveHost(config, 'db'), 'db');
    assert.equal(effectiveHost(config, 'web-special'), '192.0.2.40', 'the first HostName that applies wins');
    assert.deepEqual(configuredHosts(config), [{ alias: 'web-special', hostName: '192.0.2.40' }]);
  });

  it('refuses Include paths outside the home folder, with tokens, `..`, or globs it does not follow', () => {
    for (const arg of [
      '/etc/ssh/ssh_config',
      '../../etc/passwd',
      '~root/.ssh/config',
      '~/../other/config',
      '%d/.ssh/more',
      '${HOME}/x',
      'conf?.d',
      'conf[12]',
      '*/config',
      'a/*/config',
      '`id`',
      '',
    ]) {
      assert.equal(includeTarget(arg, HOME), undefined, arg);
    }
    assert.deepEqual(includeTarget('more', HOME), { file: `${HOME}/.ssh/more` });
    assert.deepEqual(includeTarget(`${HOME}/x/y`, HOME), { file: `${HOME}/x/y` });
    assert.deepEqual(includeTarget('~/dots/ssh-*', HOME), { dir: `${HOME}/dots`, glob: 'ssh-*' });
  });

  it('ends Include loops: each file once, a few levels deep, a few files in all', async () => {
    const loop = await configOf({
      [CONFIG]: 'Include config\nInclude a\nHost top\n  HostName 192.0.2.1\n',
      [`${HOME}/.ssh/a`]: 'Include b\nHost a\n',
      [`${HOME}/.ssh/b`]: 'Include a\nInclude ~/.ssh/config\nHost b\n',
    });
    assert.deepEqual(
      configuredHosts(loop.config).map((h) => h.alias),
      ['b', 'a', 'top'],
    );
    assert.equal(loop.config.files, 3);
    assert.equal(loop.files.reads.length, 3);

    const chain: Record<string, string> = { [CONFIG]: 'Include l1\n' };
    for (let i = 1; i <= 10; i++) chain[`${HOME}/.ssh/l${i}`] = `Include l${i + 1}\nHost level${i}\n`;
    const deep = await configOf(chain);
    assert.deepEqual(
      configuredHosts(deep.config).map((h) => h.alias),
      ['level4', 'level3', 'level2', 'level1'],
    );
    assert.ok(deep.config.limited.includes('depth'));

    const many: Record<string, string> = { [CONFIG]: 'Include d/*\n' };
    for (let i = 0; i < 40; i++) many[`${HOME}/.ssh/d/f${String(i).padStart(2, '0')}`] = `Host h${i}\n`;
    const wide = await configOf(many);
    assert.equal(wide.config.files, SSH_CONFIG_LIMITS.maxFiles);
    assert.ok(wide.files.reads.length <= SSH_CONFIG_LIMITS.maxFiles);
  });

  it('reads a huge file only up to its bound, and never half a line', async () => {
    const head = 'Host a\n  HostName 192.0.2.1\nHost b\n  HostName 192.0.2.123\n';
    const limits = { maxBytesPerFile: head.length - 3 };
    const { config, files } = await configOf({ [CONFIG]: head + 'x'.repeat(10 * 1024 * 1024) }, limits);
    assert.equal(files.reads[0]?.maxBytes, limits.maxBytesPerFile);
    assert.ok(config.limited.includes('bytes'));
    // The cut line `  HostName 192.0.2.1` (two characters short) would name another server: it is dropped.
    assert.deepEqual(configuredHosts(config), [{ alias: 'a', hostName: '192.0.2.1' }, { alias: 'b' }]);
  });

  it('survives binary junk, NULs, a 1 MB line and too many lines or blocks', async () => {
    const junk = Buffer.alloc(200_000);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919 + 13) % 256;
    const { config: binary } = await configOf({ [CONFIG]: junk });
    assert.ok(binary.files === 1 && configuredHosts(binary).length <= 10);
    // A line that cannot be read may have been a Host line: what follows it is given to no host.
    const { config: nul } = await configOf({ [CONFIG]: 'Host a\u0000b\n  HostName 192.0.2.1\nHost ok\n' });
    assert.deepEqual(configuredHosts(nul), [{ alias: 'ok' }]);
    const { config: quote } = await configOf({ [CONFIG]: 'Host "ok\n  HostName 192.0.2.1\nHost ok\n' });
    assert.deepEqual(configuredHosts(quote), [{ alias: 'ok' }]);
    // A long line is skipped like junk; a 1 MB one is also past the file's bound, so nothing after it is read.
    const after = '\n  HostName 192.0.2.1\nHost fine\n  HostName 192.0.2.2\n';
    const { config: long } = await configOf({ [CONFIG]: `Host before\nHost ${'a'.repeat(100_000)}${after}` });
    assert.deepEqual(configuredHosts(long), [{ alias: 'before' }, { alias: 'fine', hostName: '192.0.2.2' }]);
    const { config: huge } = await configOf({ [CONFIG]: `Host before\nHost ${'a'.repeat(1024 * 1024)}${after}` });
    assert.deepEqual(configuredHosts(huge), [{ alias: 'before' }]);
    const { config: lines } = await configOf({ [CONFIG]: 'Host first\n' + '# x\n'.repeat(50_000) + 'Host last\n' });
    assert.ok(lines.limited.includes('lines'));
    assert.deepEqual(
      configuredHosts(lines).map((h) => h.alias),
      ['first'],
    );
    const { config: blocks } = await configOf({ [CONFIG]: 'Host h\n'.repeat(5_000) }, { maxBlocks: 100 });
    assert.equal(blocks.blocks.length, 100);
    assert.ok(blocks.limited.includes('blocks'));
  });

  it('stops waiting for a file that never answers', async () => {
    const memory = new MemoryFiles({ [CONFIG]: 'Include slow d/*\nHost fast\n' }).hang(`${HOME}/.ssh/slow`);
    memory.addDir(`${HOME}/.ssh/d`).hang(`${HOME}/.ssh/d`);
    const started = Date.now();
    const config = await readSshConfig({ home: HOME, reader: memory }, { ...SSH_CONFIG_LIMITS, timeMs: 100 });
    assert.ok(Date.now() - started < 2_000);
    assert.ok(config.limited.includes('time'));
  });

  it('bounds the work of many long wildcard patterns', async () => {
    const nasty = `Host ${Array.from({ length: 64 }, () => '*a'.repeat(100) + '*b').join(' ')}\n  HostName 192.0.2.1\n`;
    const aliases = Array.from({ length: 500 }, (_, i) => `Host ${'a'.repeat(200)}${i}`).join('\n');
    const { config } = await configOf({ [CONFIG]: nasty.repeat(50) + aliases });
    const started = performance.now();
    const hosts = configuredHosts(config);
    // Far above the time the budget allows on any machine; what counts is that it ends and says nothing false.
    assert.ok(performance.now() - started < 5_000);
    assert.ok(hosts.every((h) => h.hostName === undefined));
    const budget = new MatchBudget(10);
    assert.equal(globMatch('a'.repeat(100), '*b', budget), false);
    assert.ok(budget.spent);
  });

  it('splits lines as ssh does and never throws', () => {
    assert.deepEqual(splitLine('  Host  a  "b c" #x'), { keyword: 'host', args: ['a', 'b c'] });
    assert.deepEqual(splitLine('HostName=web'), { keyword: 'hostname', args: ['web'] });
    assert.equal(splitLine('Host "unclosed'), 'junk');
    assert.equal(splitLine('   # comment'), undefined);
    assert.equal(splitLine('Host a\u001bb'), 'junk');
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        splitLine(text);
      }),
    );
  });

  it('matches `*` and `?` like a reference matcher', () => {
    const reference = (text: string, pattern: string): boolean =>
      new RegExp(
        `^${[...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\-]/g, '\\$&'))).join('')}$`,
        's',
      ).test(text);
    const alphabet = fc.constantFrom('a', 'b', '.', '-');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 12 }).map((c) => c.join('')),
        fc.array(fc.oneof(alphabet, fc.constant('*'), fc.constant('?')), { maxLength: 8 }).map((c) => c.join('')),
        (text, pattern) => globMatch(text, pattern) === reference(text, pattern),
      ),
      { numRuns: 2_000 },
    );
  });

  it('reads real files through the node reader: a FIFO is no file and never blocks, a long file is cut', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'ssh-config-'));
    try {
      mkdirSync(join(dir, '.ssh'));
      writeFileSync(join(dir, '.ssh', 'config'), 'Include fifo big\nHost real\n  HostName 192.0.2.7\n');
      writeFileSync(join(dir, '.ssh', 'big'), 'Host big\n' + '#'.repeat(SSH_CONFIG_LIMITS.maxBytesPerFile));
      execFileSync('mkfifo', [join(dir, '.ssh', 'fifo')]);
      const config = await readSshConfig({ home: dir, reader: nodeFileReader });
      assert.deepEqual(configuredHosts(config), [{ alias: 'big' }, { alias: 'real', hostName: '192.0.2.7' }]);
      assert.ok(config.limited.includes('bytes'));
      assert.equal(await nodeFileReader.readText(join(dir, '.ssh'), 100), undefined, 'a directory is no file');
      assert.equal(await nodeFileReader.readText(join(dir, 'missing'), 100), undefined);
      assert.deepEqual(await nodeFileReader.readText(join(dir, '.ssh', 'config'), 7), {
        text: 'Include',
        truncated: true,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
