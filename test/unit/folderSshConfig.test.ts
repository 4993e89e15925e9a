import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import {
  effectiveHost,
  globMatch,
  patternsMatch,
  readSshConfig,
  SSH_LIMITS,
  type SshConfig,
} from '../../src/folder/sshConfig';

describe('folder sources: ~/.ssh/config (unit)', () => {
  let root: string;
  let home: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ssh-config-'));
    home = join(root, 'home');
    mkdirSync(join(home, '.ssh'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Writes files under the home folder (paths relative to it). */
  function write(files: Record<string, string>): void {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(home, file)), { recursive: true });
      writeFileSync(join(home, file), text);
    }
  }

  async function configOf(files: Record<string, string>, limits = SSH_LIMITS): Promise<SshConfig> {
    write(files);
    return readSshConfig(home, limits);
  }

  it('gives each host the first HostName of the blocks that apply, as ssh does', async () => {
    const config = await configOf({
      '.ssh/config': [
        '# my servers',
        'Host web-01 web',
        '  HostName 203.0.113.5',
        '  User deploy',
        'HOST=staging "stage"  # two aliases',
        '\thostname = Staging.Example.COM\r',
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
        'Host six',
        '  HostName 2001:DB8:0:0::1',
      ].join('\n'),
    });
    assert.equal(effectiveHost(config, 'web'), '203.0.113.5');
    assert.equal(effectiveHost(config, 'Web-01'), '203.0.113.5');
    assert.equal(effectiveHost(config, 'stage'), 'staging.example.com');
    assert.equal(effectiveHost(config, 'db.prod'), 'db.prod.internal.example');
    assert.equal(effectiveHost(config, 'bastion.prod'), '192.0.2.1');
    assert.equal(effectiveHost(config, 'web-1'), '192.0.2.2', 'the first block that applies wins');
    assert.equal(effectiveHost(config, 'web-10'), 'web-10', 'no block applies: the host itself');
    assert.equal(effectiveHost(config, 'six'), '2001:db8::1');
    // `100%` is no host; another token means where ssh goes is not known here.
    assert.equal(effectiveHost(config, 'pct'), undefined);
    assert.equal(effectiveHost(config, 'tokens'), undefined);
    assert.equal(effectiveHost(config, 'bad host'), undefined);
  });

  it('never runs a command: Match exec, ProxyCommand and the rest are only parsed', async () => {
    const marker = join(root, 'ran');
    const childProcess = createRequire(__filename)('node:child_process') as Record<string, unknown>;
    const calls: string[] = [];
    const originals = new Map<string, unknown>();
    for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
      originals.set(name, childProcess[name]);
      childProcess[name] = (...args: unknown[]) => {
        calls.push(`${name} ${String(args[0])}`);
        throw new Error('no command may run');
      };
    }
    try {
      const config = await configOf({
        '.ssh/config': [
          `Match exec "touch ${marker}" host web`,
          '  HostName 192.0.2.66',
          '  Include evil.conf',
          'Host web',
          `  ProxyCommand touch ${marker}`,
          `  KnownHostsCommand touch ${marker}`,
          `  LocalCommand touch ${marker}`,
          '  HostName 192.0.2.10',
          'Match all',
          '  HostName 192.0.2.67',
        ].join('\n'),
        '.ssh/evil.conf': 'Host web\n  HostName 192.0.2.68\n',
      });
      assert.equal(effectiveHost(config, 'web'), '192.0.2.10', 'Match blocks (and their includes) are skipped');
      assert.equal(effectiveHost(config, 'other'), 'other');
    } finally {
      for (const [name, original] of originals) childProcess[name] = original;
    }
    assert.deepEqual(calls, []);
    assert.equal(existsSync(marker), false);
  });

  it('follows Include inside ~/.ssh: relative, `~/.ssh/…`, `*` in the last segment (sorted, no dot files), in place', async () => {
    const config = await configOf({
      '.ssh/config': [
        'Include config.d/*.conf ~/.ssh/extra',
        'Host late',
        '  HostName 192.0.2.99',
        'Host b',
        '  HostName 192.0.2.98',
      ].join('\n'),
      '.ssh/config.d/20-b.conf': 'Host b\n  HostName 192.0.2.2\n',
      '.ssh/config.d/10-a.conf': 'Host a\n  HostName 192.0.2.1\nHost b\n  HostName 192.0.2.3\n',
      '.ssh/config.d/.hidden.conf': 'Host a\n  HostName 192.0.2.66\n',
      '.ssh/config.d/notes.txt': 'Host a\n  HostName 192.0.2.67\n',
      '.ssh/extra': 'Host x\n  HostName 192.0.2.4\n',
    });
    assert.equal(effectiveHost(config, 'a'), '192.0.2.1');
    assert.equal(effectiveHost(config, 'b'), '192.0.2.3', 'files in sorted order, before what follows the Include');
    assert.equal(effectiveHost(config, 'x'), '192.0.2.4');
    assert.equal(effectiveHost(config, 'late'), '192.0.2.99');
    assert.deepEqual(config.skipped, []);
  });

  it('applies an Include inside a Host block only to the hosts of that block, then goes on with the block', async () => {
    const config = await configOf({
      '.ssh/config': ['Host work-*', '  Include work.conf', '  HostName 192.0.2.50'].join('\n'),
      '.ssh/work.conf': 'HostName 192.0.2.40\nHost work-db other\n  HostName 192.0.2.41\n',
    });
    assert.equal(effectiveHost(config, 'work-web'), '192.0.2.40');
    assert.equal(effectiveHost(config, 'work-db'), '192.0.2.40', 'the first HostName obtained wins');
    assert.equal(effectiveHost(config, 'other'), 'other', 'the included blocks need the including one too');
  });

  it('never reads an Include outside ~/.ssh, through a symlink or otherwise', async () => {
    const outside = join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'hosts'), 'Host web\n  HostName 203.0.113.66\n');
    write({ 'notes/hosts': 'Host web\n  HostName 203.0.113.67\n' });
    symlinkSync(join(outside, 'hosts'), join(home, '.ssh', 'linked'));
    symlinkSync(outside, join(home, '.ssh', 'linkdir'));
    for (const include of [
      'linked',
      'linkdir/hosts',
      'linkdir/*',
      '../notes/hosts',
      '~/notes/hosts',
      join(outside, 'hosts'),
      `${outside}/*`,
      '~other/.ssh/config',
      '%d/notes/hosts',
      '${HOME}/notes/hosts',
    ]) {
      const config = await configOf({ '.ssh/config': `Include ${include}\n` });
      assert.equal(effectiveHost(config, 'web'), 'web', include);
      assert.deepEqual(config.skipped, ['outside'], include);
    }
  });

  it('follows a symlink that stays inside ~/.ssh, and a ~/.ssh that is itself a symlink', async () => {
    write({ '.ssh/real.conf': 'Host web\n  HostName 203.0.113.5\n' });
    symlinkSync(join(home, '.ssh', 'real.conf'), join(home, '.ssh', 'alias.conf'));
    const config = await configOf({ '.ssh/config': 'Include alias.conf\n' });
    assert.equal(effectiveHost(config, 'web'), '203.0.113.5');

    const dotfiles = join(root, 'dotfiles-ssh');
    mkdirSync(dotfiles);
    writeFileSync(join(dotfiles, 'config'), 'Include inner.conf\n');
    writeFileSync(join(dotfiles, 'inner.conf'), 'Host db\n  HostName 203.0.113.6\n');
    rmSync(join(home, '.ssh'), { recursive: true });
    symlinkSync(dotfiles, join(home, '.ssh'));
    assert.equal(effectiveHost(await readSshConfig(home), 'db'), '203.0.113.6');
  });

  it('ends Include loops and bounds depth, file count and file size', async () => {
    const loop = await configOf({
      '.ssh/config': 'Include a\nHost end\n  HostName 192.0.2.9\n',
      '.ssh/a': 'Include b\n',
      '.ssh/b': 'Include a config\nHost b\n  HostName 192.0.2.2\n',
    });
    assert.equal(effectiveHost(loop, 'b'), '192.0.2.2');
    assert.equal(effectiveHost(loop, 'end'), '192.0.2.9');

    const chain: Record<string, string> = { '.ssh/config': 'Include d1\n' };
    for (let i = 1; i <= 6; i++) chain[`.ssh/d${i}`] = `Include d${i + 1}\nHost h${i}\n  HostName 192.0.2.${i}\n`;
    const deep = await configOf(chain);
    assert.equal(effectiveHost(deep, 'h4'), '192.0.2.4');
    assert.equal(effectiveHost(deep, 'h5'), 'h5', 'four levels below the main file at most');
    assert.ok(deep.skipped.includes('depth'));

    const many: Record<string, string> = { '.ssh/config': 'Include many/*\n' };
    for (let i = 0; i < 30; i++) {
      many[`.ssh/many/${String(i).padStart(2, '0')}`] = `Host m${i}\n  HostName 192.0.2.${i}\n`;
    }
    const wide = await configOf(many);
    assert.equal(effectiveHost(wide, 'm14'), '192.0.2.14');
    assert.equal(effectiveHost(wide, 'm15'), 'm15', 'sixteen files in all, the main one counted');
    assert.ok(wide.skipped.includes('files'));

    const big = await configOf({
      '.ssh/config': 'Include big\nHost small\n  HostName 192.0.2.1\n',
      '.ssh/big': `Host big\n  HostName 192.0.2.2\n#${'x'.repeat(SSH_LIMITS.maxBytes)}\n`,
    });
    assert.equal(effectiveHost(big, 'big'), 'big', 'a file over the bound is not read at all');
    assert.equal(effectiveHost(big, 'small'), '192.0.2.1');
    assert.deepEqual(big.skipped, ['size']);
  });

  it('reads nothing of a file ssh would refuse, a FIFO, or a missing config', async () => {
    const broken = await configOf({ '.ssh/config': 'Host web\n  HostName 192.0.2.1\nHost "open\n' });
    assert.deepEqual(broken, { blocks: [], skipped: ['syntax'] });
    rmSync(join(home, '.ssh', 'config'));
    assert.deepEqual(await readSshConfig(home), { blocks: [], skipped: [] });
    execFileSync('mkfifo', [join(home, '.ssh', 'config')]);
    assert.deepEqual(await readSshConfig(home), { blocks: [], skipped: [] }, 'a FIFO is no file, never waited on');
  });

  it('matches `*` and `?` like a reference matcher, and `!` as ssh does (property)', () => {
    const reference = (text: string, pattern: string): boolean =>
      pattern === ''
        ? text === ''
        : pattern[0] === '*'
          ? reference(text, pattern.slice(1)) || (text !== '' && reference(text.slice(1), pattern))
          : text !== '' && (pattern[0] === '?' || pattern[0] === text[0]) && reference(text.slice(1), pattern.slice(1));
    fc.assert(
      fc.property(fc.stringMatching(/^[ab.]{0,8}$/), fc.stringMatching(/^[ab.*?]{0,6}$/), (text, pattern) => {
        assert.equal(globMatch(text, pattern), reference(text, pattern), `${text} ~ ${pattern}`);
      }),
      { numRuns: 5_000 },
    );
    assert.equal(patternsMatch(['*.prod', '!db.prod'], 'web.prod'), true);
    assert.equal(patternsMatch(['*.prod', '!db.prod'], 'db.prod'), false);
    assert.equal(patternsMatch(['!db.prod'], 'web.prod'), false, 'a negation alone matches nothing');
  });

  it('gives up on a pattern list built to be slow instead of stalling', async () => {
    const slow = `${'*a'.repeat(100)}b`;
    const config = await configOf({
      '.ssh/config': Array.from({ length: 60 }, () => `Host ${slow}\n  HostName 192.0.2.1`).join('\n'),
    });
    assert.equal(effectiveHost(config, 'a'.repeat(250)), undefined);
  });
});
