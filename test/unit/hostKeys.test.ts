import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  forgetHostKeyArgs,
  forgetHostKeys,
  forgetPlan,
  hostKeyAdvice,
  hostKeyFailure,
  parseForgetOutput,
} from '../../src/ssh/knownHosts';
import { runArgv } from '../../src/ssh/runArgv';
import { FakeSshKeygen } from './helpers/fakeSshKeygen';

const CHANGED_STDERR = [
  '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@',
  '@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @',
  '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@',
  'IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!',
  'Someone could be eavesdropping on you right now (man-in-the-middle attack)!',
  'It is also possible that a host key has just been changed.',
  'The fingerprint for the ED25519 key sent by the remote host is',
  'SHA256:2b9a1Vf0m5pQ0T5l3j6G6n2i8xv3E0p9Qe0Jm8r0aXo.',
  'Please contact your system administrator.',
  'Add correct host key in /root/.ssh/known_hosts to get rid of this message.',
  'Offending ED25519 key in /root/.ssh/known_hosts:3',
  '  remove with:',
  '  ssh-keygen -f "/root/.ssh/known_hosts" -R "203.0.113.5"',
  'Host key for 203.0.113.5 has changed and you have requested strict checking.',
  'Host key verification failed.',
  '',
].join('\n');

describe('SSH host keys after a reinstall (unit)', () => {
  it("plans to forget only the server's own addresses: IPs and its main host name, no shared host, at most eight", () => {
    assert.deepEqual(
      forgetPlan(
        [
          '203.0.113.5',
          '127.0.0.1',
          '::1',
          'github.com',
          'git.example.com',
          '2001:DB8::5',
          '2001:db8:0::5',
          'localhost',
        ],
        '203.0.113.5',
      ),
      { hosts: ['203.0.113.5', '2001:DB8::5'], left: 0 },
    );
    assert.deepEqual(forgetPlan(['Web.Example.com', '203.0.113.5'], 'web.example.com'), {
      hosts: ['Web.Example.com', '203.0.113.5'],
      left: 0,
    });
    assert.deepEqual(forgetPlan(['github.com'], 'github.com'), { hosts: [], left: 0 });
    const many = Array.from({ length: 12 }, (_, i) => `198.51.100.${i + 1}`);
    assert.deepEqual(forgetPlan(many, many[0]), { hosts: many.slice(0, 8), left: 4 });
  });

  it('builds one ssh-keygen -R argv per host form, [host]:port only off port 22, IPv6 in brackets', () => {
    assert.deepEqual(forgetHostKeyArgs(['203.0.113.5', 'Web-01.Example.com'], 22), [
      ['-R', '203.0.113.5'],
      ['-R', 'web-01.example.com'],
    ]);
    assert.deepEqual(forgetHostKeyArgs(['203.0.113.5', '2001:db8::5'], 2222), [
      ['-R', '203.0.113.5'],
      ['-R', '[203.0.113.5]:2222'],
      ['-R', '2001:db8::5'],
      ['-R', '[2001:db8::5]:2222'],
    ]);
    // ssh writes the address as it was typed (lower case); the canonical form is what an IP check would write.
    assert.deepEqual(forgetHostKeyArgs(['2001:0DB8:0:0::5'], 22), [
      ['-R', '2001:0db8:0:0::5'],
      ['-R', '2001:db8::5'],
    ]);
    assert.deepEqual(forgetHostKeyArgs(['203.0.113.5', '203.0.113.5'], 22, '/tmp/kh'), [
      ['-f', '/tmp/kh', '-R', '203.0.113.5'],
    ]);
  });

  it('leaves out every address checkHost refuses, and refuses a bad port or file', () => {
    assert.deepEqual(
      forgetHostKeyArgs(
        [
          '-oProxyCommand=touch /tmp/pwned',
          '203.0.113.5; rm -rf ~',
          '$(reboot)',
          'a b',
          '[2001:db8::1]:22',
          'root@203.0.113.5',
          'ехаmple.com',
          '',
          '198.51.100.1',
        ],
        22,
      ),
      [['-R', '198.51.100.1']],
    );
    for (const port of [0, 65_536, 22.5, Number.NaN]) {
      assert.throws(() => forgetHostKeyArgs(['203.0.113.5'], port), RangeError, String(port));
    }
    for (const file of ['', '-oProxyCommand=x', 'a\nb', 'x'.repeat(2_000)]) {
      assert.throws(() => forgetHostKeyArgs(['203.0.113.5'], 22, file), RangeError, file.slice(0, 20));
    }
  });

  it('never gives ssh-keygen an option or odd text as a host, whatever the server sent (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 20 }),
        fc.integer({ min: 1, max: 65_535 }),
        (a, p) => {
          for (const argv of forgetHostKeyArgs(a, p)) {
            assert.equal(argv.length, 2);
            assert.equal(argv[0], '-R');
            assert.match(argv[1] ?? '', /^(?:[\d.:a-z-]+|\[[\d.:a-z-]+\]:\d+)$/);
            assert.ok(!argv[1]?.startsWith('-'));
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('reads what ssh-keygen -R prints, keeping no path', () => {
    const found = parseForgetOutput(
      '# Host 203.0.113.5 found: line 1\n# Host 203.0.113.5 found: line 5 type ED25519\r\n/root/.ssh/known_hosts updated.\nOriginal contents retained as /root/.ssh/known_hosts.old\n',
      '',
    );
    assert.deepEqual(found, {
      removed: [
        { host: '203.0.113.5', line: 1 },
        { host: '203.0.113.5', line: 5 },
      ],
      updated: true,
      notFound: false,
      noFile: false,
    });
    assert.ok(!JSON.stringify(found).includes('/root'));
    assert.deepEqual(parseForgetOutput('', 'Host 203.0.113.9 not found in /root/.ssh/known_hosts\n'), {
      removed: [],
      updated: false,
      notFound: true,
      noFile: false,
    });
    assert.equal(parseForgetOutput('', 'Cannot stat /x/known_hosts: No such file or directory\n').noFile, true);
  });

  it('reads hostile output bounded: odd host text dropped, huge output cut, entries capped', () => {
    const odd = parseForgetOutput('# Host a\u001b[31mb found: line 3\n# Host x found: line notanumber\n', '');
    assert.deepEqual(odd.removed, []);
    const flood = parseForgetOutput('# Host h found: line 1\n'.repeat(1_000_000), 'x'.repeat(10_000_000));
    assert.equal(flood.removed.length, 256);
    const long = parseForgetOutput(`# Host ${'a'.repeat(1_000)} found: line 1\n`, '');
    assert.deepEqual(long.removed, []);
  });

  it('recognises a changed host key, and a failed verification, from stderr and exit code', () => {
    assert.equal(hostKeyFailure(CHANGED_STDERR, 255), 'changed');
    assert.equal(hostKeyFailure(CHANGED_STDERR), 'changed', 'exit code not known (a terminal)');
    assert.equal(hostKeyFailure(CHANGED_STDERR, 0), undefined, 'the session ran: ssh got past the key');
    assert.equal(hostKeyFailure(CHANGED_STDERR, 1), undefined);
    assert.equal(hostKeyFailure(CHANGED_STDERR, null), undefined, 'stopped by a signal');
    assert.equal(hostKeyFailure('Host key verification failed.\n', 255), 'verificationFailed');
    assert.equal(hostKeyFailure('ssh: connect to host 203.0.113.5 port 22: Connection refused\n', 255), undefined);
    const noisy = `${'debug1: x\n'.repeat(1_000_000)}Host key verification failed.\n`;
    assert.equal(hostKeyFailure(noisy, 255), 'verificationFailed', 'the end of a long stderr is read');
    const buried = `${'x'.repeat(10_000_000)}${CHANGED_STDERR.split('\n').slice(0, 3).join('\n')}`;
    assert.equal(hostKeyFailure(buried, 255), undefined, 'past the head only the tail is read');
  });

  it('offers to forget old keys only for a server seen reinstalled; otherwise it warns', () => {
    assert.equal(hostKeyAdvice('changed', true), 'offerToForget');
    assert.equal(hostKeyAdvice('changed', false), 'warnChanged');
    assert.equal(hostKeyAdvice('verificationFailed', true), 'none');
    assert.equal(hostKeyAdvice(undefined, true), 'none');
  });

  describe('running ssh-keygen by argv', () => {
    let fake: FakeSshKeygen;
    beforeEach(() => {
      fake = new FakeSshKeygen();
    });
    afterEach(() => fake.dispose());

    it('passes each argument verbatim, no shell in between', async () => {
      const marker = join(fake.dir, 'pwned');
      const args = ['-R', `$(touch ${marker})`, `; touch ${marker}`, '`id`', 'a b', '*', '"\'\\'];
      const outcome = await runArgv('ssh-keygen', args, { timeoutMs: 10_000, maxOutputBytes: 4096, env: fake.env });
      assert.equal(outcome.ok, true);
      assert.deepEqual(fake.calls(), [args]);
      assert.equal(existsSync(marker), false);
    });

    it('stops a program that hangs or floods, and says why', async () => {
      fake.behave({ mode: 'hang' });
      const started = Date.now();
      const hung = await runArgv('ssh-keygen', ['-R', 'x'], { timeoutMs: 300, maxOutputBytes: 4096, env: fake.env });
      assert.ok(hung.ok && hung.timedOut && hung.exitCode === null, JSON.stringify(hung));
      assert.ok(Date.now() - started < 5_000);
      fake.behave({ mode: 'flood' });
      const flood = await runArgv('ssh-keygen', ['-R', 'x'], {
        timeoutMs: 10_000,
        maxOutputBytes: 4096,
        env: fake.env,
      });
      assert.ok(flood.ok && flood.outputCut && !flood.timedOut, JSON.stringify({ ...flood, stdout: '' }));
      assert.ok(flood.ok && flood.stdout.length <= 4096);
      const controller = new AbortController();
      fake.behave({ mode: 'hang' });
      const pending = runArgv('ssh-keygen', [], {
        timeoutMs: 10_000,
        maxOutputBytes: 10,
        env: fake.env,
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 100);
      const cancelled = await pending;
      assert.ok(cancelled.ok && cancelled.cancelled && !cancelled.timedOut);
    });

    it('says when the program is not there', async () => {
      const env = { ...fake.env, PATH: fake.dir };
      assert.deepEqual(await runArgv('no-such-program-here', [], { timeoutMs: 1_000, maxOutputBytes: 10, env }), {
        ok: false,
        problem: 'notFound',
      });
    });

    it('forgets every form of every address, one run at a time, and reports what was removed', async () => {
      fake.behave({ known: { '203.0.113.5': 3, '[2001:db8::5]:2222': 7 } });
      const outcome = await forgetHostKeys(['203.0.113.5', '2001:db8::5', '-oProxyCommand=x'], 2222, {
        env: fake.env,
      });
      assert.deepEqual(fake.calls(), [
        ['-R', '203.0.113.5'],
        ['-R', '[203.0.113.5]:2222'],
        ['-R', '2001:db8::5'],
        ['-R', '[2001:db8::5]:2222'],
      ]);
      assert.deepEqual(outcome, {
        kind: 'done',
        removed: [
          { host: '203.0.113.5', line: 3 },
          { host: '[2001:db8::5]:2222', line: 7 },
        ],
        failedRuns: 0,
      });
    });

    it('counts failed runs, treats a missing known_hosts as nothing to forget, and stops when it cannot run', async () => {
      fake.behave({ mode: 'fail' });
      assert.deepEqual(await forgetHostKeys(['203.0.113.5'], 22, { env: fake.env }), {
        kind: 'done',
        removed: [],
        failedRuns: 1,
      });
      fake.behave({ mode: 'noFile' });
      assert.deepEqual(await forgetHostKeys(['203.0.113.5'], 22, { env: fake.env }), {
        kind: 'done',
        removed: [],
        failedRuns: 0,
      });
      assert.deepEqual(await forgetHostKeys(['-x'], 22, { env: fake.env }), {
        kind: 'done',
        removed: [],
        failedRuns: 0,
      });
      const before = fake.calls().length;
      assert.deepEqual(
        await forgetHostKeys(['203.0.113.5', '198.51.100.1'], 22, { env: { ...fake.env, PATH: '/nonexistent' } }),
        {
          kind: 'notRun',
          problem: 'notFound',
        },
      );
      assert.equal(fake.calls().length, before);
    });
  });

  it('removes the entries from a real known_hosts with the real ssh-keygen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'known-hosts-'));
    try {
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'key')]);
      const key = readFileSync(join(dir, 'key.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
      const file = join(dir, 'known_hosts');
      const lines = ['203.0.113.5', '[203.0.113.5]:2222', 'other.example', '2001:db8::5', '[2001:db8::5]:2222'];
      writeFileSync(file, lines.map((host) => `${host} ${key}\n`).join(''));
      const outcome = await forgetHostKeys(['203.0.113.5', '2001:db8::5'], 2222, { knownHostsFile: file });
      assert.deepEqual(outcome, {
        kind: 'done',
        removed: [
          { host: '203.0.113.5', line: 1 },
          { host: '[203.0.113.5]:2222', line: 1 },
          { host: '2001:db8::5', line: 2 },
          { host: '[2001:db8::5]:2222', line: 2 },
        ],
        failedRuns: 0,
      });
      assert.equal(readFileSync(file, 'utf8'), `other.example ${key}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes a host out of a line it shares with other names, which keep their key (github.com,140.82.112.3)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'known-hosts-'));
    try {
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'key')]);
      const key = readFileSync(join(dir, 'key.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
      const hashed = join(dir, 'hashed');
      writeFileSync(hashed, `140.82.112.3 ${key}\n`);
      execFileSync('ssh-keygen', ['-H', '-f', hashed], { stdio: 'ignore' });
      const file = join(dir, 'known_hosts');
      const lines = [`github.com,140.82.112.3 ${key}`, `[140.82.112.3]:2222,Gh.Example ${key}`];
      writeFileSync(
        file,
        `${lines.join('\n')}\n${readFileSync(hashed, 'utf8')}# 140.82.112.3,x\nother.example ${key}\n`,
      );
      const outcome = await forgetHostKeys(['140.82.112.3'], 2222, { knownHostsFile: file });
      assert.deepEqual(outcome, {
        kind: 'done',
        removed: [
          { host: '140.82.112.3', line: 1 },
          { host: '[140.82.112.3]:2222', line: 2 },
          { host: '140.82.112.3', line: 3 },
        ],
        failedRuns: 0,
      });
      // The hashed line (one host) is removed whole, as before; the comment is the user's.
      assert.equal(
        readFileSync(file, 'utf8'),
        `github.com ${key}\nGh.Example ${key}\n# 140.82.112.3,x\nother.example ${key}\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
