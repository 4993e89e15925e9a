import assert from 'node:assert/strict';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { readChoice, rememberChoice } from '../../src/ssh/choices';
import { checkHost, isDnsName, isPlainIPv4, isSafePort, isSafeUser } from '../../src/util/hostCheck';
import { probeUntilOpen, tcpConnect, type TryConnect } from '../../src/ssh/probe';
import { connectedHosts, isWindowOn, sshRemoteHost } from '../../src/ssh/remoteWindow';
import { sshArgs } from '../../src/ssh/sshArgs';

const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

describe('SSH host checks (unit)', () => {
  it('accepts plain IPv4, IPv6 and DNS names as they are', () => {
    assert.deepEqual(checkHost('203.0.113.5'), { ok: true, host: '203.0.113.5', kind: 'ipv4' });
    assert.deepEqual(checkHost('2001:db8::1'), { ok: true, host: '2001:db8::1', kind: 'ipv6' });
    assert.deepEqual(checkHost('2001:db8::192.0.2.1'), { ok: true, host: '2001:db8::192.0.2.1', kind: 'ipv6' });
    assert.deepEqual(checkHost('web-01.example.com'), { ok: true, host: 'web-01.example.com', kind: 'name' });
    assert.deepEqual(checkHost('web-01'), { ok: true, host: 'web-01', kind: 'name' });
  });

  it('refuses option syntax, shell syntax, spaces and other non-addresses', () => {
    const cases: Array<[unknown, string]> = [
      ['-oProxyCommand=touch /tmp/x', 'option'],
      ['-oProxyCommand.example.com', 'option'],
      ['-p', 'option'],
      ['a;b', 'notHost'],
      ['a b', 'notHost'],
      ['host\tname', 'notHost'],
      ['203.0.113.5 -oProxyCommand=x', 'notHost'],
      ['$(reboot)', 'notHost'],
      ['`id`.example.com', 'notHost'],
      ['host|cat', 'notHost'],
      ['root@203.0.113.5', 'notHost'],
      ['203.0.113.5:22', 'notHost'],
      ['[2001:db8::1]', 'notHost'],
      ['fe80::1%eth0', 'notHost'],
      ['host\nname', 'notHost'],
      ['example..com', 'notHost'],
      ['-example.com', 'option'],
      ['example-.com', 'notHost'],
      ['example.com.', 'notHost'],
      ['a'.repeat(64) + '.com', 'notHost'],
      ['x.'.repeat(130) + 'com', 'notHost'],
      ['', 'empty'],
      [undefined, 'empty'],
      [42, 'empty'],
    ];
    for (const [text, problem] of cases) {
      assert.deepEqual(checkHost(text), { ok: false, problem }, JSON.stringify(text));
    }
  });

  it('refuses look-alike letters and any other character outside ASCII', () => {
    for (const text of [
      'ехаmple.com',
      'exam\u0440le.com',
      'web\u200b01.example.com',
      '２０３.0.113.5',
      'web\u00a001',
    ]) {
      assert.deepEqual(checkHost(text), { ok: false, problem: 'notAscii' }, text);
    }
  });

  it('refuses legacy IPv4 notations that name another host than they seem to', () => {
    for (const text of ['010.0.0.1', '1.2.3', '3232235777', '0x7f.1', '256.1.1.1', '1.2.3.4.5']) {
      assert.equal(checkHost(text).ok, false, text);
    }
    assert.equal(isPlainIPv4('0.0.0.0'), true);
    assert.equal(isPlainIPv4('01.2.3.4'), false);
    assert.equal(isDnsName('1.example.com'), true);
    assert.equal(isDnsName('example.123'), false);
  });

  it('refuses every numeric host form but canonical dotted IPv4, as numericForm', () => {
    // The C library reads each of these as an IPv4 address (loopback or private here), not as a name.
    for (const text of ['127.0x1', '127.1', '0x7f000001', '10.0.0.0x1', '0X7F.1', '0177.0.0.1', '010.0.0.1', '1.2.3']) {
      assert.deepEqual(checkHost(text), { ok: false, problem: 'numericForm' }, text);
    }
    for (const text of ['3232235777', '1.2.3.4.5', 'web.0x1', 'a.b.0']) {
      assert.deepEqual(checkHost(text), { ok: false, problem: 'numericForm' }, text);
    }
    // A name whose last label is a word is looked up as a name; numeric-looking inner labels are fine.
    assert.deepEqual(checkHost('0x1.example.com'), { ok: true, host: '0x1.example.com', kind: 'name' });
    assert.deepEqual(checkHost('10.example.com'), { ok: true, host: '10.example.com', kind: 'name' });
  });

  it('refuses the unspecified addresses, in every spelling, as unspecified', () => {
    for (const text of ['0.0.0.0', '::', '0::0', '0:0:0:0:0:0:0:0', '::0.0.0.0', '::ffff:0.0.0.0', '::ffff:0:0']) {
      assert.deepEqual(checkHost(text), { ok: false, problem: 'unspecified' }, text);
    }
    assert.deepEqual(checkHost('::1'), { ok: true, host: '::1', kind: 'ipv6' });
    assert.deepEqual(checkHost('0.0.0.1'), { ok: true, host: '0.0.0.1', kind: 'ipv4' });
  });

  it('refuses IPv6 forms of an IPv4 address (mapped, compatible, translated, NAT64) as embeddedIPv4; loopback stays', () => {
    for (const text of [
      '::ffff:127.0.0.1',
      '::FFFF:7f00:1',
      '0:0:0:0:0:ffff:c000:0201',
      '::ffff:0:192.0.2.1',
      '::192.0.2.1',
      '::127.0.0.1',
      '64:ff9b::192.0.2.1',
      '64:ff9b:1::c000:201',
    ]) {
      assert.deepEqual(checkHost(text), { ok: false, problem: 'embeddedIPv4' }, text);
    }
    for (const text of ['::1', '0:0:0:0:0:0:0:1', '::0.0.0.1', '2001:db8::192.0.2.1', '64:ff9c::1']) {
      assert.equal(checkHost(text).ok, true, text);
    }
  });

  it('accepts plain user names and ports only', () => {
    for (const user of ['root', 'ubuntu', 'deploy_bot', 'a.b-c', '_svc']) assert.equal(isSafeUser(user), true, user);
    for (const user of ['', '-oProxyCommand=x', 'root@host', 'a b', 'a;b', '1root', 'ｒoot', 'x'.repeat(33), 7]) {
      assert.equal(isSafeUser(user), false, String(user));
    }
    for (const port of [1, 22, 2222, 65_535]) assert.equal(isSafePort(port), true, String(port));
    for (const port of [0, -1, 65_536, 22.5, Number.NaN, '22']) assert.equal(isSafePort(port), false, String(port));
  });
});

describe('ssh arguments (unit)', () => {
  it('passes the user with -l, the port with -p, and the host after --, as separate entries', () => {
    assert.deepEqual(sshArgs({ host: '203.0.113.5', user: 'root', port: 22 }), [
      '-l',
      'root',
      '-p',
      '22',
      '--',
      '203.0.113.5',
    ]);
    assert.deepEqual(sshArgs({ host: '2001:db8::1', user: 'deploy', port: 2222 }), [
      '-l',
      'deploy',
      '-p',
      '2222',
      '--',
      '2001:db8::1',
    ]);
  });

  it('throws rather than build arguments from a host, user or port that is not plain', () => {
    assert.throws(() => sshArgs({ host: '-oProxyCommand=x', user: 'root', port: 22 }));
    assert.throws(() => sshArgs({ host: 'a;b', user: 'root', port: 22 }));
    assert.throws(() => sshArgs({ host: '203.0.113.5', user: '-oProxyCommand=x', port: 22 }));
    assert.throws(() => sshArgs({ host: '203.0.113.5', user: 'root', port: 0 }));
  });
});

describe('Remote-SSH window detection (unit)', () => {
  it('reads the host of an ssh-remote authority in its plain, user@, host:port and hex-JSON forms', () => {
    assert.equal(sshRemoteHost('ssh-remote+web-01'), 'web-01');
    assert.equal(sshRemoteHost('ssh-remote+root@203.0.113.5'), '203.0.113.5');
    assert.equal(sshRemoteHost('ssh-remote+203.0.113.5:2222'), '203.0.113.5');
    assert.equal(sshRemoteHost('ssh-remote+[2001:db8::1]:22'), '2001:db8::1');
    assert.equal(sshRemoteHost('ssh-remote+2001:db8::1'), '2001:db8::1');
    assert.equal(
      sshRemoteHost(`ssh-remote+${hex('{"hostName":"Web-01.Example.com","user":"root"}')}`),
      'web-01.example.com',
    );
    assert.equal(sshRemoteHost('ssh-remote+deadbeef'), 'deadbeef');
    assert.equal(sshRemoteHost(`ssh-remote+${hex('{"hostName":')}`), hex('{"hostName":'));
    assert.equal(sshRemoteHost('wsl+Ubuntu'), undefined);
    assert.equal(sshRemoteHost(`ssh-remote+${'a'.repeat(5_000)}`), undefined);
  });

  it('sees a connection only in a Remote-SSH window', () => {
    assert.deepEqual(
      connectedHosts({ remoteName: 'ssh-remote', authorities: ['ssh-remote+web-01', 'ssh-remote+web-01'] }),
      ['web-01'],
    );
    assert.deepEqual(connectedHosts({ remoteName: undefined, authorities: ['ssh-remote+web-01'] }), []);
    assert.deepEqual(connectedHosts({ remoteName: 'wsl', authorities: ['wsl+web-01'] }), []);
  });

  it('matches the order by any of its addresses or by its name, ignoring case', () => {
    const order = { label: 'web-01', address: '203.0.113.5', addresses: ['203.0.113.5', '2001:db8::5'] };
    const window = (authority: string) => ({ remoteName: 'ssh-remote', authorities: [authority] });
    assert.equal(isWindowOn(window('ssh-remote+root@203.0.113.5'), order), true);
    assert.equal(isWindowOn(window('ssh-remote+[2001:DB8::5]:22'), order), true);
    assert.equal(isWindowOn(window('ssh-remote+WEB-01'), order), true);
    assert.equal(isWindowOn(window(`ssh-remote+${hex('{"hostName":"203.0.113.5"}')}`), order), true);
    assert.equal(isWindowOn(window('ssh-remote+203.0.113.6'), order), false);
    assert.equal(isWindowOn({ remoteName: undefined, authorities: [] }, order), false);
  });
});

describe('Reachability probe (unit, real loopback sockets)', () => {
  // The deadlines are generous: a loaded machine delays timers, and an open port ends the probe at once.
  const fast = { intervalMs: 40, giveUpMs: 5_000, connectTimeoutMs: 200 };
  let servers: Server[] = [];

  afterEach(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    servers = [];
  });

  async function listen(port = 0): Promise<number> {
    const server = createServer((socket) => socket.destroy());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  /** A port that was free a moment ago: nothing listens on it until the test says so. */
  async function freePort(): Promise<number> {
    const port = await listen();
    const server = servers.pop() as Server;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it('connects to an open port at once', async () => {
    const port = await listen();
    assert.equal(await tcpConnect('127.0.0.1', port, 1_000, new AbortController().signal), true);
    assert.deepEqual(await probeUntilOpen('127.0.0.1', port, fast, new AbortController().signal), {
      result: 'open',
      attempts: 1,
    });
  });

  it('waits for a port that opens late, one attempt per interval', async () => {
    const port = await freePort();
    const starts: number[] = [];
    const recorded: TryConnect = (host, p, timeout, signal) => {
      starts.push(Date.now());
      return tcpConnect(host, p, timeout, signal);
    };
    setTimeout(() => void listen(port), 300);
    const outcome = await probeUntilOpen('127.0.0.1', port, fast, new AbortController().signal, recorded);
    assert.equal(outcome.result, 'open');
    assert.ok(outcome.attempts >= 2, `attempts: ${outcome.attempts}`);
    for (let i = 1; i < starts.length; i++) {
      assert.ok(
        (starts[i] as number) - (starts[i - 1] as number) >= fast.intervalMs - 5,
        'no two attempts within one interval',
      );
    }
  });

  it('gives up at the deadline on a port that never opens', async () => {
    const port = await freePort();
    const outcome = await probeUntilOpen(
      '127.0.0.1',
      port,
      { intervalMs: 50, giveUpMs: 600, connectTimeoutMs: 100 },
      new AbortController().signal,
    );
    assert.equal(outcome.result, 'gaveUp');
    // At most one attempt per interval until the deadline.
    assert.ok(outcome.attempts >= 2 && outcome.attempts <= 13, `attempts: ${outcome.attempts}`);
  });

  it('only ever asks for the host and port it was given, and stops when cancelled', async () => {
    const asked = new Set<string>();
    const controller = new AbortController();
    const never: TryConnect = (host, port) => {
      asked.add(`${host}:${port}`);
      if (asked.size === 1 && [...asked][0] === '192.0.2.7:2222') setTimeout(() => controller.abort(), 60);
      return Promise.resolve(false);
    };
    const outcome = await probeUntilOpen(
      '192.0.2.7',
      2222,
      { intervalMs: 20, giveUpMs: 60_000, connectTimeoutMs: 10 },
      controller.signal,
      never,
    );
    assert.equal(outcome.result, 'cancelled');
    assert.deepEqual([...asked], ['192.0.2.7:2222']);
  });
});

describe('remembered SSH choices (unit)', () => {
  /** The part of `vscode.Memento` the choices use, over a plain map. */
  function memento(initial: Record<string, unknown> = {}) {
    const values = new Map<string, unknown>(Object.entries(initial));
    return {
      keys: () => [...values.keys()],
      get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
      update: (key: string, value: unknown) => {
        values.set(key, value);
        return Promise.resolve();
      },
    };
  }

  it('keeps the address and the user per order, each until replaced', async () => {
    const state = memento();
    await rememberChoice(state, '7', { address: '203.0.113.5' });
    await rememberChoice(state, '7', { user: 'deploy' });
    await rememberChoice(state, '8', { address: '2001:db8::8' });
    assert.deepEqual(readChoice(state, '7'), { address: '203.0.113.5', user: 'deploy' });
    assert.deepEqual(readChoice(state, '8'), { address: '2001:db8::8', user: undefined });
    assert.deepEqual(readChoice(state, '9'), {});
  });

  it('remembers a bounded number of orders, the least recently chosen going first', async () => {
    const state = memento();
    // Ids that look like numbers, out of order: the eviction follows the time of the choice, not the id.
    const ids = Array.from({ length: 205 }, (_, i) => String((i * 7919) % 1000));
    for (const id of ids) await rememberChoice(state, id, { address: '203.0.113.5' });
    await rememberChoice(state, ids[10] as string, { user: 'again' });
    assert.deepEqual(readChoice(state, ids[0] as string), {});
    assert.deepEqual(
      readChoice(state, ids[10] as string),
      { address: '203.0.113.5', user: 'again' },
      'chosen again: kept and merged',
    );
    assert.equal(readChoice(state, ids[204] as string).address, '203.0.113.5');
    assert.equal((state.get<unknown[]>('hostingAccount.ssh.choices') ?? []).length, 200);
  });

  it('ignores stored values of the wrong shape', () => {
    const state = memento({
      'hostingAccount.ssh.choices': [{ id: '7', address: 5, user: ['x'] }, 'text', null, { id: 8 }],
    });
    assert.deepEqual(readChoice(state, '7'), { address: undefined, user: undefined });
    assert.deepEqual(readChoice(state, '8'), {});
    assert.deepEqual(readChoice(memento({ 'hostingAccount.ssh.choices': { 7: { address: '203.0.113.5' } } }), '7'), {});
  });
});
