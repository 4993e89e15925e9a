/**
 * Into the servers, in a real extension host: Copy Address, Connect via SSH (a terminal running `ssh` with exact
 * arguments), Open in Remote-SSH (through a stand-in extension that records its arguments), the guard for the
 * window's own server, and the wait for the SSH port after Start (a loopback port that opens late, one that never does).
 */
import * as assert from 'node:assert/strict';
import { type AddressInfo, createServer, type Server } from 'node:net';
import * as vscode from 'vscode';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import { orderRecord } from '../mock-api/data';
import { type OrderRecord } from '../mock-api/types';
import { captureMessages, Harness, stubWindow, waitFor } from './harness';
import { plain } from '../../src/util/serverText';

const ACTION = 'POST /api/v1/orders/:id/action';

// Documentation addresses (RFC 5737/3849) and loopback: nothing here reaches a real host.
const SEED: OrderRecord[] = [
  orderRecord(2001, 'web-01', 'running', '203.0.113.5'),
  orderRecord(2002, 'dual-stack', 'running', '203.0.113.7 2001:db8::7'),
  orderRecord(2003, 'loopback-late', 'stopped', '127.0.0.1'),
  orderRecord(2004, 'loopback-never', 'stopped', '127.0.0.1'),
  // Server text that must never become an ssh option or shell code.
  orderRecord(2005, 'option-name', 'running', '', { fqdn: '-oproxycommand.example' }),
  orderRecord(2006, 'semicolon', 'running', 'a;b'),
  orderRecord(2007, 'spaced', 'running', '-oProxyCommand=touch pwned'),
  orderRecord(2008, 'look-alike', 'running', '', { fqdn: 'ехаmple.com' }),
  orderRecord(2009, 'loopback-off', 'stopped', '127.0.0.1'),
];

interface Recorded {
  readonly terminals: vscode.Terminal[];
  readonly dispose: () => void;
}

function recordTerminals(): Recorded {
  const terminals: vscode.Terminal[] = [];
  const subscription = vscode.window.onDidOpenTerminal((terminal) => terminals.push(terminal));
  return {
    terminals,
    dispose: () => {
      subscription.dispose();
      for (const terminal of terminals) terminal.dispose();
    },
  };
}

function options(terminal: vscode.Terminal): vscode.TerminalOptions {
  return terminal.creationOptions;
}

describe('into the servers: SSH, Remote-SSH, the window guard and the port probe', () => {
  let h: Harness;
  const restores: Array<() => void> = [];
  const servers: Server[] = [];

  before(async () => {
    h = await Harness.start({ seed: { orders: SEED } });
    await h.signIn();
  });
  after(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await h.dispose();
  });
  beforeEach(async () => {
    h.mock.state.reset();
    await h.store.refresh(['orders'], 'user');
    h.mock.clearLog();
    // The hooks a test set are gone for the next one.
    const state = h.api.ssh;
    delete state.probeTiming;
    delete state.remoteWindow;
    delete state.remoteSshCommand;
    await vscode.commands.executeCommand('remoteSshStandIn.calls', true);
  });
  afterEach(async () => {
    for (const restore of restores.splice(0)) restore();
    for (const name of ['ssh.user', 'ssh.port', 'notifyWhenReachable', 'confirmStopAndRestart']) {
      await h.setSetting(name, undefined);
    }
  });

  async function node(name: string): Promise<OrderNode> {
    const nodes = (await h.api.orders.getChildren()) as OrderNode[];
    const found = nodes.find((n) => plain(n.order.label) === name);
    assert.ok(found, `order ${name} in the tree`);
    return found;
  }

  /** Answers each quick pick with the item `choose` returns; records what was offered. */
  function answerPicks(
    choose: (items: vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined,
  ): vscode.QuickPickItem[][] {
    const offered: vscode.QuickPickItem[][] = [];
    restores.push(
      stubWindow('showQuickPick', async (items: vscode.QuickPickItem[] | Thenable<vscode.QuickPickItem[]>) => {
        const list = await items;
        offered.push(list);
        return choose(list);
      }),
    );
    return offered;
  }

  async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  async function listen(port: number): Promise<void> {
    const server = createServer((socket) => socket.destroy());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  }

  async function logMatches(pattern: RegExp): Promise<void> {
    const started = Date.now();
    while (!pattern.test(await h.logText())) {
      if (Date.now() - started > 10_000) assert.fail(`no log line matching ${pattern}`);
    }
  }

  it('marks orders with an address so the menus offer the SSH items there only', async () => {
    assert.equal(h.api.orders.getTreeItem(await node('web-01')).contextValue, 'order.running.address');
    assert.equal(h.api.orders.getTreeItem(await node('semicolon')).contextValue, 'order.running');
  });

  it('connects via SSH in a terminal that runs ssh with exact arguments, never through a shell', async () => {
    const opened = recordTerminals();
    restores.push(opened.dispose);
    await vscode.commands.executeCommand('hostingAccount.order.connectSsh', await node('web-01'));
    const terminal = await waitFor(() => opened.terminals[0], 'a terminal');
    assert.equal(terminal.name, 'SSH: web-01');
    assert.equal(options(terminal).shellPath, 'ssh');
    assert.deepEqual(options(terminal).shellArgs, ['-l', 'root', '-p', '22', '--', '203.0.113.5']);
  });

  it('takes the user and port from the settings', async () => {
    await h.setSetting('ssh.user', 'deploy');
    await h.setSetting('ssh.port', 2222);
    const opened = recordTerminals();
    restores.push(opened.dispose);
    await vscode.commands.executeCommand('hostingAccount.order.connectSsh', '2001');
    const terminal = await waitFor(() => opened.terminals[0], 'a terminal');
    assert.deepEqual(options(terminal).shellArgs, ['-l', 'deploy', '-p', '2222', '--', '203.0.113.5']);
  });

  it('asks which address when there are several, and remembers the choice and another user for that order', async () => {
    const opened = recordTerminals();
    restores.push(opened.dispose);
    let step = 0;
    const offered = answerPicks((items) => {
      step++;
      // First the IPv6 address; then "another user"; then whatever comes first (the remembered one).
      if (step === 1) return items.find((i) => i.label === '2001:db8::7');
      if (step === 2) return items.find((i) => i.label.includes('another user'));
      return items[0];
    });
    restores.push(stubWindow('showInputBox', () => Promise.resolve('admin')));
    const target = await node('dual-stack');
    await vscode.commands.executeCommand('hostingAccount.order.connectSsh', target);
    await vscode.commands.executeCommand('hostingAccount.order.connectSsh', target);
    await vscode.commands.executeCommand('hostingAccount.order.connectSsh', target);
    await waitFor(() => opened.terminals.length === 3, 'three terminals');
    assert.deepEqual(
      offered[0]
        ?.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator)
        .map((i) => i.label)
        .slice(0, 2),
      ['203.0.113.7', '2001:db8::7'],
    );
    assert.deepEqual(options(opened.terminals[0] as vscode.Terminal).shellArgs, [
      '-l',
      'root',
      '-p',
      '22',
      '--',
      '2001:db8::7',
    ]);
    assert.equal(offered[1]?.[0]?.label, '2001:db8::7', 'the address chosen last comes first');
    assert.match(String(offered[1]?.[0]?.description), /last used/);
    // "Another user" keeps the address chosen last; the new user is remembered for the order too.
    assert.deepEqual(options(opened.terminals[1] as vscode.Terminal).shellArgs, [
      '-l',
      'admin',
      '-p',
      '22',
      '--',
      '2001:db8::7',
    ]);
    assert.deepEqual(options(opened.terminals[2] as vscode.Terminal).shellArgs, [
      '-l',
      'admin',
      '-p',
      '22',
      '--',
      '2001:db8::7',
    ]);
  });

  it('refuses hostile addresses with a clear message and opens no terminal', async () => {
    const opened = recordTerminals();
    restores.push(opened.dispose);
    const messages = captureMessages();
    restores.push(messages.restore);
    // The host rule refuses these when the order is read: none becomes an address, each is kept with why.
    const refused = (id: string) => h.store.orders.get(id)?.refusedAddresses?.map((r) => [plain(r.value), r.problem]);
    for (const id of ['2005', '2006', '2007', '2008']) assert.equal(h.store.orders.get(id)?.address, undefined, id);
    assert.deepEqual(refused('2005'), [['-oproxycommand.example', 'option']]);
    assert.deepEqual(refused('2008'), [['ехаmple.com', 'notAscii']]);
    await vscode.commands.executeCommand('hostingAccount.order.connectSsh', '2005');
    await vscode.commands.executeCommand('hostingAccount.order.openRemoteSsh', '2005');
    await vscode.commands.executeCommand('hostingAccount.order.copyAddress', '2005');
    assert.equal(messages.shown.length, 3);
    for (const shown of messages.shown) {
      assert.equal(shown.level, 'error');
      assert.match(
        shown.message,
        /"-oproxycommand\.example" of option-name starts with "-", so ssh would read it as an option/,
      );
    }
    for (const id of ['2006', '2007', '2008']) {
      await vscode.commands.executeCommand('hostingAccount.order.connectSsh', id);
    }
    const said = messages.shown.slice(3).map((m) => m.message);
    assert.equal(said.length, 3, said.join('\n'));
    assert.match(said[0] ?? '', /"a;b" of semicolon is not a plain IP address or host name/);
    assert.match(said[1] ?? '', /of spaced (starts with "-"|is not a plain IP address)/);
    assert.match(said[2] ?? '', /of look-alike has characters outside plain ASCII/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(opened.terminals.length, 0);
    const calls = await vscode.commands.executeCommand<unknown[]>('remoteSshStandIn.calls');
    assert.deepEqual(calls, []);
  });

  it('offers orders with an address, or with a refused one, from the palette, and copies the address', async () => {
    const offered = answerPicks((items) => items.find((i) => i.label.includes('web-01')));
    await vscode.commands.executeCommand('hostingAccount.order.copyAddress');
    const labels = (offered[0] ?? []).map((i) => i.label);
    assert.ok(labels.some((l) => l.includes('web-01')));
    // A refused address keeps its order in the list, so picking it says why instead of the server going missing.
    assert.ok(
      labels.some((l) => l.includes('look-alike')),
      labels.join(),
    );
    assert.equal(await vscode.env.clipboard.readText(), '203.0.113.5');
  });

  it("opens a Remote-SSH window through the provider's command with host, user and port", async () => {
    await h.setSetting('ssh.port', 2200);
    await vscode.commands.executeCommand('hostingAccount.order.openRemoteSsh', await node('web-01'));
    const calls = await vscode.commands.executeCommand<unknown[]>('remoteSshStandIn.calls');
    assert.deepEqual(calls, [[{ host: '203.0.113.5', userName: 'root', port: 2200 }]]);
  });

  it('offers to install Remote - SSH when no extension provides the command', async () => {
    h.api.ssh.remoteSshCommand = 'hostingAccountTest.noSuchRemoteSsh';
    const messages = captureMessages();
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.order.openRemoteSsh', '2001');
    assert.equal(messages.shown.length, 1);
    assert.match(messages.shown[0]?.message ?? '', /needs the Remote - SSH extension/);
    assert.deepEqual(messages.shown[0]?.options, ['Install Remote - SSH', 'Show Extension']);
    assert.deepEqual(await vscode.commands.executeCommand<unknown[]>('remoteSshStandIn.calls'), []);
  });

  it("says so when Stop, Restart or Reinstall would end this Remote-SSH window's session, and asks even when the setting says not to", async () => {
    h.api.ssh.remoteWindow = () => ({ remoteName: 'ssh-remote', authorities: ['ssh-remote+root@203.0.113.5'] });
    await h.setSetting('confirmStopAndRestart', false);
    // The restart below settles into running: no probe of a documentation address is wanted from it.
    await h.setSetting('notifyWhenReachable', false);
    const asked: Array<{ message: string; options: unknown[] }> = [];
    restores.push(
      stubWindow('showWarningMessage', (message: string, ...rest: unknown[]) => {
        asked.push({ message, options: rest });
        return Promise.resolve(undefined);
      }),
    );
    await vscode.commands.executeCommand('hostingAccount.order.stop', await node('web-01'));
    assert.equal(asked.length, 1);
    const detail = String((asked[0]?.options[0] as vscode.MessageOptions).detail);
    assert.match(detail, /^This window is connected to web-01; stopping it ends this session\./);
    assert.equal(h.requests(ACTION).length, 0, 'declined: nothing sent');
    // The same window matched by the order's name (an SSH config alias), for Restart and Reinstall.
    h.api.ssh.remoteWindow = () => ({ remoteName: 'ssh-remote', authorities: ['ssh-remote+WEB-01'] });
    await vscode.commands.executeCommand('hostingAccount.order.restart', await node('web-01'));
    await vscode.commands.executeCommand('hostingAccount.order.reinstall', await node('web-01'));
    const details = asked.slice(1).map((a) => String((a.options[0] as vscode.MessageOptions).detail));
    assert.equal(details.length, 2);
    assert.match(details[0] ?? '', /^This window is connected to web-01; restarting it ends this session\./);
    assert.match(details[1] ?? '', /^This window is connected to web-01; reinstalling it ends this session/);
    assert.equal(h.requests(ACTION).length, 0, 'declined: nothing sent');
    asked.splice(1);
    // Another order than the window's: the setting applies as before.
    await vscode.commands.executeCommand('hostingAccount.order.restart', await node('dual-stack'));
    assert.equal(asked.length, 1);
    assert.equal(h.requests(ACTION).length, 1);
    await waitFor(() => !h.store.pending('2002'), 'the restart to settle', 10_000);
  });

  /** Starts a seeded server from its node and waits until the start has settled into running. */
  async function startAndSettle(name: string, id: string): Promise<void> {
    await vscode.commands.executeCommand('hostingAccount.order.start', await node(name));
    await waitFor(
      () => h.store.orders.get(id)?.state === 'running' && !h.store.pending(id),
      'the start to settle',
      10_000,
    );
  }

  it('waits for the SSH port after Start, then says once that the server is up and connects from the button', async () => {
    const port = await freePort();
    await h.setSetting('ssh.port', port);
    h.api.ssh.probeTiming = { intervalMs: 100, giveUpMs: 15_000, connectTimeoutMs: 300 };
    const opened = recordTerminals();
    restores.push(opened.dispose);
    const messages = captureMessages({ info: 'Connect via SSH' });
    restores.push(messages.restore);
    await startAndSettle('loopback-late', '2003');
    // The port opens well after the order runs: the probe keeps trying until then.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(messages.shown.length, 0, 'nothing said while the port is closed');
    await listen(port);
    const up = await waitFor(
      () => messages.shown.find((m) => m.message === 'loopback-late is up'),
      'the notification',
      10_000,
    );
    assert.deepEqual(up.options, ['Connect via SSH', 'Open in Remote-SSH']);
    const terminal = await waitFor(() => opened.terminals[0], 'the terminal from the button');
    assert.deepEqual(options(terminal).shellArgs, ['-l', 'root', '-p', String(port), '--', '127.0.0.1']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(messages.shown.filter((m) => /is up/.test(m.message)).length, 1, 'said once');
    assert.match(await h.logText(), new RegExp(`order 2003: waiting for 127\\.0\\.0\\.1 port ${port} to open`));
  });

  it('gives up quietly on a port that never opens, and logs it', async () => {
    const port = await freePort();
    await h.setSetting('ssh.port', port);
    h.api.ssh.probeTiming = { intervalMs: 100, giveUpMs: 800, connectTimeoutMs: 200 };
    const messages = captureMessages();
    restores.push(messages.restore);
    await startAndSettle('loopback-never', '2004');
    const pattern = new RegExp(`order 2004: 127\\.0\\.0\\.1 port ${port} still closed after \\d+ attempts`);
    await logMatches(pattern);
    assert.equal(messages.shown.length, 0, 'no notification');
  });

  it('does not probe when the setting is off', async () => {
    await h.setSetting('notifyWhenReachable', false);
    h.api.ssh.probeTiming = { intervalMs: 100, giveUpMs: 800, connectTimeoutMs: 200 };
    const messages = captureMessages();
    restores.push(messages.restore);
    await startAndSettle('loopback-off', '2009');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.doesNotMatch(await h.logText(), /order 2009: waiting for/);
    assert.equal(messages.shown.length, 0);
  });
});
