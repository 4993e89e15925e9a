/**
 * This folder's server, in a real extension host: binding and unbinding the workspace folder (per folder, in
 * workspaceState), the status bar item per state (and that it asks for nothing), the suggestion sources (git remotes
 * of the workspace folder made with real git and read by the built-in git extension, enabled for this suite; a stand-in
 * home folder's ~/.ssh/config; a stand-in Remote-SSH window; the folder's own settings), Restricted Mode, hostile `hostingAccount.folderServer` values, the pickers that put the folder's server
 * first, SSH offered from the palette only where the tree offers it, and the old host keys after a reinstall (a
 * stand-in ssh-keygen records its arguments; a loopback port that closes every connection makes ssh exit 255).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FOLDER_BINDINGS_KEY, FOLDER_SUGGESTIONS_KEY } from '../../src/folder/bindings';
import { type GitExtension, type GitRepository } from '../../src/folder/git';
import { REINSTALLS_KEY, readReinstalls } from '../../src/ssh/reinstalls';
import { plain } from '../../src/util/serverText';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import { orderRecord } from '../mock-api/data';
import { type OrderRecord } from '../mock-api/types';
import { FakeSshKeygen } from '../unit/helpers/fakeSshKeygen';
import { captureMessages, extraMock, Harness, stubWindow, waitFor } from './harness';

// Documentation addresses (RFC 5737/3849) and loopback: nothing here reaches a real host.
const SEED: OrderRecord[] = [
  orderRecord(5001, 'web-01', 'running', '203.0.113.5'),
  orderRecord(5002, 'db-01', 'stopped', '203.0.113.6'),
  orderRecord(5003, 'staging.example.com', 'running', '203.0.113.7 2001:db8::7'),
  orderRecord(5004, 'loopback', 'running', '127.0.0.1'),
  orderRecord(5005, 'parked', 'suspended', '203.0.113.8'),
  orderRecord(5006, 'spare', 'stopped', ''),
];

describe("this folder's server: bindings, the status bar item, suggestions, host keys after a reinstall", () => {
  let h: Harness;
  let home: string;
  const restores: Array<() => void> = [];
  const servers: Server[] = [];

  const folder = (): vscode.WorkspaceFolder => {
    const first = vscode.workspace.workspaceFolders?.[0];
    assert.ok(first, 'the run opens a workspace folder');
    return first;
  };
  const item = () => h.api.folderItem.item;

  before(async () => {
    h = await Harness.start({ seed: { orders: SEED } });
    await h.signIn();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'folder-home-'));
    // The rig turns git off for every suite; this one reads remotes through the git extension, as users' windows do.
    const git = vscode.workspace.getConfiguration('git');
    await git.update('openRepositoryInParentFolders', 'never', vscode.ConfigurationTarget.Workspace);
    await git.update('enabled', true, vscode.ConfigurationTarget.Workspace);
    execFileSync('git', ['init', '-q', folder().uri.fsPath]);
    await gitRepository();
  });
  after(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(path.join(folder().uri.fsPath, '.git'), { recursive: true, force: true });
    const git = vscode.workspace.getConfiguration('git');
    await git.update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
    await git.update('openRepositoryInParentFolders', undefined, vscode.ConfigurationTarget.Workspace);
    await h.dispose();
  });
  beforeEach(async () => {
    h.mock.state.reset();
    await h.store.refresh(['orders'], 'user');
    h.mock.clearLog();
  });
  afterEach(async () => {
    // Last stubbed, first restored: a stub over a stub puts back what it replaced.
    for (const restore of restores.splice(0).reverse()) restore();
    const hooks = h.api.folderHooks;
    hooks.suggest = false;
    delete hooks.home;
    delete hooks.trusted;
    delete h.api.ssh.remoteWindow;
    delete h.api.ssh.sshKeygen;
    h.api.suggestions.forgetSources();
    const state = h.api.context.workspaceState;
    await state.update(FOLDER_BINDINGS_KEY, undefined);
    await state.update(FOLDER_SUGGESTIONS_KEY, undefined);
    await h.api.context.globalState.update(REINSTALLS_KEY, undefined);
    await vscode.workspace
      .getConfiguration('hostingAccount', folder().uri)
      .update('folderServer', undefined, vscode.ConfigurationTarget.WorkspaceFolder);
    await h.setSetting('folderServer', undefined);
    for (const name of ['ssh.port', 'notifyWhenReachable', 'confirmStopAndRestart']) {
      await h.setSetting(name, undefined);
    }
    await setGitRemotes();
    fs.rmSync(path.join(home, '.ssh'), { recursive: true, force: true });
  });

  async function node(name: string): Promise<OrderNode> {
    const found = (await h.orderNodes()).find((n) => plain(n.order.label) === name);
    assert.ok(found, `order ${name} in the tree`);
    return found;
  }

  async function bindTo(orderId: string, name: string): Promise<void> {
    await h.api.folders.bind(folder().uri, { accountId: 'default', orderId, name });
    await waitFor(() => h.api.folderItem.visible, 'the item to show');
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

  /**
   * Warnings answered apart: a modal question is recorded (the messages returned) and answered `modal`; a notification
   * goes with the rest of what `told` caught, answered `notification`.
   */
  function warnings(
    told: ReturnType<typeof messages>,
    answers: { readonly modal: string; readonly notification: string | undefined },
  ): string[] {
    const modals: string[] = [];
    restores.push(
      stubWindow('showWarningMessage', (message: string, ...rest: unknown[]) => {
        if ((rest[0] as vscode.MessageOptions | undefined)?.modal) {
          modals.push(message);
          return Promise.resolve(answers.modal);
        }
        told.shown.push({ level: 'warning', message, options: rest });
        return Promise.resolve(answers.notification);
      }),
    );
    return modals;
  }

  function messages(answers: Parameters<typeof captureMessages>[0] = {}): ReturnType<typeof captureMessages> {
    const captured = captureMessages(answers);
    restores.push(captured.restore);
    return captured;
  }

  function writeSshConfig(text: string): void {
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.ssh', 'config'), text);
  }

  /** The workspace folder's repository, as the git extension has it (`git init` in `before`). */
  async function gitRepository(): Promise<GitRepository & { status(): Promise<void> }> {
    const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
    assert.ok(extension, 'the built-in git extension');
    const exports = extension.isActive ? extension.exports : await extension.activate();
    await waitFor(() => exports.enabled, 'git enabled for this workspace');
    const api = exports.getAPI(1);
    return waitFor(
      () => (api.getRepository(folder().uri) ?? undefined) as (GitRepository & { status(): Promise<void> }) | undefined,
      'the git extension to open the workspace folder',
      20_000,
    );
  }

  /**
   * Sets the workspace folder's remotes with real git, and waits until the git extension tells of them: after the
   * extension's own listener (registered first), so its check is scheduled by then and the next check reads them.
   */
  async function setGitRemotes(...urls: string[]): Promise<void> {
    const git = (...args: string[]): string =>
      execFileSync('git', ['-C', folder().uri.fsPath, ...args], { encoding: 'utf8' });
    const repository = await gitRepository();
    for (const name of git('remote').split('\n').filter(Boolean)) git('remote', 'remove', name);
    urls.forEach((url, i) => git('remote', 'add', i ? `r${i}` : 'origin', url));
    const read = (): boolean => {
      const remotes = repository.state.remotes.map((remote) => remote.fetchUrl);
      return remotes.length === urls.length && urls.every((url) => remotes.includes(url));
    };
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        subscription.dispose();
        reject(new Error(`the git extension did not read the remotes ${urls.join(', ')}`));
      }, 10_000);
      const subscription = repository.state.onDidChange(() => {
        if (!read()) return;
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      });
      void repository.status();
    });
  }

  /** Suggestions on, with the stand-in home; one check, and what it said. */
  async function suggest(answers: Parameters<typeof captureMessages>[0] = {}): Promise<string[]> {
    const shown = messages(answers);
    h.api.folderHooks.suggest = true;
    h.api.folderHooks.home = home;
    await h.api.suggestions.check();
    // The offer is a notification the check does not wait for. Only offers count: a server that came back in the
    // mock's reset may be told as new meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return shown.shown.filter((m) => m.options.includes('Bind')).map((m) => m.message);
  }

  describe('binding', () => {
    it('binds the folder from a server node, shows the item, and unbinds', async () => {
      assert.equal(h.api.folderItem.visible, false, 'no item while the folder has no server');
      await vscode.commands.executeCommand('hostingAccount.folder.bind', await node('web-01'));
      const binding = await waitFor(() => h.api.folders.bindingOf(folder().uri), 'the binding');
      assert.deepEqual(
        { accountId: binding.accountId, orderId: binding.orderId, name: binding.name },
        { accountId: 'default', orderId: '5001', name: 'web-01' },
      );
      await waitFor(() => h.api.folderItem.visible, 'the item');
      assert.equal(item().text, '$(vm-running) web-01 · Running');
      assert.equal((item().command as vscode.Command | undefined)?.command, 'hostingAccount.folder.actions');
      await vscode.commands.executeCommand('hostingAccount.folder.unbind');
      await waitFor(() => !h.api.folderItem.visible, 'the item to hide');
      assert.equal(h.api.folders.bindingOf(folder().uri), undefined);
    });

    it('binds from the palette, offering the current server first; unbinding an unbound folder says so', async () => {
      await bindTo('5002', 'db-01');
      const offered = answerPicks((items) => items.find((i) => i.label.includes('web-01')));
      await vscode.commands.executeCommand('hostingAccount.folder.bind');
      assert.match(offered[0]?.[0]?.label ?? '', /db-01/);
      assert.match(String(offered[0]?.[0]?.description), /this folder's server/);
      await waitFor(() => h.api.folders.bindingOf(folder().uri)?.orderId === '5001', 'the new binding');
      await vscode.commands.executeCommand('hostingAccount.folder.unbind');
      const told = messages();
      await vscode.commands.executeCommand('hostingAccount.folder.unbind');
      assert.match(told.shown[0]?.message ?? '', /is not bound to a server/);
    });

    // The runner opens one folder, and in code-server a second one added through updateWorkspaceFolders never arrives
    // (the window would have to enter an untitled workspace): the per-folder state is tested through the storage.
    it('keeps each folder its own server (two folder URIs through the storage API)', async () => {
      const other = vscode.Uri.file(path.join(os.tmpdir(), 'another-folder'));
      await h.api.folders.bind(folder().uri, { accountId: 'default', orderId: '5001', name: 'web-01' });
      await h.api.folders.bind(other, { accountId: 'default', orderId: '5002', name: 'db-01' });
      assert.equal(h.api.folders.bindingOf(folder().uri)?.orderId, '5001');
      assert.equal(h.api.folders.bindingOf(other)?.orderId, '5002');
      // The item follows the open folder, not the other one.
      await waitFor(() => item().text === '$(vm-running) web-01 · Running', 'the open folder on the item');
      await h.api.folders.unbind(other);
      assert.equal(h.api.folders.bindingOf(other), undefined);
      assert.equal(h.api.folders.bindingOf(folder().uri)?.orderId, '5001', 'the other folder keeps its server');
    });
  });

  describe('the status bar item', () => {
    it('shows the state as the tree does, a spinner while an action runs, and adds no request of its own', async () => {
      await bindTo('5001', 'web-01');
      assert.equal(item().text, '$(vm-running) web-01 · Running');
      assert.equal((item().color as vscode.ThemeColor | undefined)?.id, 'debugIcon.startForeground');
      const tooltip = (item().tooltip as vscode.MarkdownString).value;
      assert.match(tooltip, /Address: 203\\\.0\\\.113\\\.5/);
      assert.match(tooltip, /Account: /);
      assert.ok(h.store.orders.get('5001')?.renewal?.date, 'the mock says when web-01 renews');
      // The renewal in the words of the server's row: when, for how much, and whether the balance pays it.
      const row = (await h.orderNodes()).find((node) => node.id === '5001');
      assert.ok(row);
      const rowTooltip = (
        h.api.orders.resolveTreeItem(h.api.orders.getTreeItem(row), row).tooltip as vscode.MarkdownString
      ).value;
      const renewalLines = rowTooltip.split('\n').filter((line) => /^\$\((?:calendar|warning|pass|info)\) /.test(line));
      assert.match(renewalLines[0] ?? '', /^\$\(calendar\) Renews /, rowTooltip);
      for (const line of renewalLines) assert.ok(tooltip.includes(line.trimEnd()), `${line}\n---\n${tooltip}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(h.requests().length, 0, 'binding and showing asked for nothing');

      for (const [id, name, text] of [
        ['5002', 'db-01', '$(vm-outline) db-01 · Stopped'],
        ['5005', 'parked', '$(circle-slash) parked · Suspended'],
      ] as const) {
        await bindTo(id, name);
        await waitFor(() => item().text === text, text);
      }
      assert.equal(h.requests().length, 0, 'rebinding asked for nothing');

      // A state changed elsewhere shows with the next list the views read anyway.
      await bindTo('5001', 'web-01');
      h.mock.state.setOrderStatus(5001, 'restarting');
      await h.store.refresh(['orders'], 'user');
      await waitFor(() => item().text === '$(loading~spin) web-01 · Restarting', 'the server restarting');
      h.mock.state.setOrderStatus(5001, 'running');
      await h.store.refresh(['orders'], 'user');

      // Our own action: the spinner and its progress word, then the state it settles in.
      await h.setSetting('confirmStopAndRestart', false);
      await h.setSetting('notifyWhenReachable', false);
      await vscode.commands.executeCommand('hostingAccount.order.restart', await node('web-01'));
      await waitFor(() => item().text === '$(loading~spin) web-01 · Restarting…', 'the restart under way');
      await waitFor(() => item().text === '$(vm-running) web-01 · Running', 'the restart settled', 10_000);
    });

    it('says Gone when the whole list no longer has the server, and hides while signed out', async () => {
      await bindTo('5003', 'staging.example.com');
      h.mock.state.orders = h.mock.state.orders.filter((o) => o.id !== 5003);
      await h.store.refresh(['orders'], 'user');
      await waitFor(() => item().text === '$(warning) staging.example.com · Gone', 'the server gone');
      assert.equal(item().backgroundColor?.id, 'statusBarItem.warningBackground');
      const offered = answerPicks(() => undefined);
      await vscode.commands.executeCommand('hostingAccount.folder.actions');
      assert.deepEqual(
        offered[0]?.map((i) => i.label),
        ['$(link) Bind This Folder to Another Server…', '$(debug-disconnect) Unbind This Folder'],
      );

      await h.keys.delete();
      await waitFor(() => !h.api.folderItem.visible, 'the item to hide while signed out');
      await h.signIn();
      // Signed in again, the list read is the mock's (reset in the next test): still gone until then.
      await waitFor(() => h.api.folderItem.visible, 'the item back');
    });

    it('offers what fits the state on click, and runs it on the server itself', async () => {
      await bindTo('5001', 'web-01');
      let offered = answerPicks(() => undefined);
      await vscode.commands.executeCommand('hostingAccount.folder.actions');
      assert.deepEqual(
        offered[0]?.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator).map((i) => i.label),
        [
          '$(debug-restart) Restart',
          '$(debug-stop) Stop',
          '$(terminal) Connect via SSH',
          '$(remote) Open in Remote-SSH',
          '$(copy) Copy Address',
          '$(info) Show Details',
          '$(link) Bind This Folder to Another Server…',
          '$(debug-disconnect) Unbind This Folder',
        ],
      );
      restores.pop()?.();
      await bindTo('5002', 'db-01');
      offered = answerPicks((items) => items.find((i) => i.label.includes('Copy Address')));
      await vscode.commands.executeCommand('hostingAccount.folder.actions');
      const labels = offered[0]?.map((i) => i.label) ?? [];
      assert.ok(labels.includes('$(debug-start) Start') && !labels.some((l) => /Restart|SSH/.test(l)), labels.join());
      assert.equal(await vscode.env.clipboard.readText(), '203.0.113.6');
    });
  });

  describe('the pickers', () => {
    it("put the folder's server first and mark it; SSH from the palette lists only what the tree offers it on", async () => {
      await bindTo('5003', 'staging.example.com');
      let offered = answerPicks(() => undefined);
      await vscode.commands.executeCommand('hostingAccount.order.showDetails');
      assert.match(offered[0]?.[0]?.label ?? '', /staging\.example\.com/);
      assert.match(String(offered[0]?.[0]?.description), /^\$\(folder\) this folder's server · Running$/);
      assert.ok(!offered[0]?.slice(1).some((i) => /this folder's server/.test(String(i.description))));
      restores.pop()?.();

      offered = answerPicks(() => undefined);
      await vscode.commands.executeCommand('hostingAccount.order.connectSsh');
      await vscode.commands.executeCommand('hostingAccount.order.openRemoteSsh');
      await vscode.commands.executeCommand('hostingAccount.order.copyAddress');
      const names = offered.map((list) => list.map((i) => /\) (\S+)/.exec(i.label)?.[1]));
      // Running with an address: SSH. Stopped or suspended: only Copy Address. An empty `ip` (spare) is no address,
      // nor a refused one: spare is listed nowhere.
      assert.deepEqual(names[0], ['staging.example.com', 'web-01', 'loopback']);
      assert.deepEqual(names[1], ['staging.example.com', 'web-01', 'loopback']);
      assert.deepEqual(names[2], ['staging.example.com', 'web-01', 'db-01', 'loopback', 'parked']);
    });
  });

  describe('suggestions', () => {
    it('a folder with no git remote is not offered the one server of ~/.ssh/config', async () => {
      writeSshConfig('Host web\n  HostName 203.0.113.5\n  User deploy\n');
      assert.deepEqual(await suggest(), [], 'the ssh config alone says nothing of this folder');
      await setGitRemotes('git@web:team/app.git');
      const said = await suggest();
      assert.deepEqual(said, [
        `Bind the folder "${folder().name}" to the server web-01? The folder's git remote points at it.`,
      ]);
      assert.equal(h.api.folders.bindingOf(folder().uri), undefined, 'a suggestion never binds by itself');
      assert.deepEqual(await suggest({ info: 'Bind' }), [], 'never repeated for that folder');
      assert.equal(h.requests().length, 0, 'suggesting asked for nothing');
    });

    it('from a git remote of the folder (its host equal to an address), bound on Bind', async () => {
      await setGitRemotes('ssh://git@203.0.113.7/srv/app.git');
      const said = await suggest({ info: 'Bind' });
      assert.deepEqual(said, [
        `Bind the folder "${folder().name}" to the server staging.example.com? The folder's git remote points at it.`,
      ]);
      await waitFor(() => h.api.folders.bindingOf(folder().uri)?.orderId === '5003', 'the binding');
    });

    it("from a git remote naming a server's host name, and from this window's Remote-SSH host", async () => {
      await setGitRemotes('https://staging.example.com/team/app.git');
      assert.match((await suggest())[0] ?? '', /staging\.example\.com\? The folder's git remote points at it\.$/);
      await h.api.context.workspaceState.update(FOLDER_SUGGESTIONS_KEY, undefined);
      await setGitRemotes();
      h.api.ssh.remoteWindow = () => ({ remoteName: 'ssh-remote', authorities: ['ssh-remote+root@203.0.113.6'] });
      assert.deepEqual(await suggest(), [
        `Bind the folder "${folder().name}" to the server db-01? This window is connected to it over Remote-SSH.`,
      ]);
    });

    it('says nothing when no server or several match', async () => {
      writeSshConfig('Host a\n  HostName 203.0.113.5\nHost b\n  HostName 203.0.113.6\n');
      await setGitRemotes('git@github.example:team/app.git');
      assert.deepEqual(await suggest(), [], 'a remote that is no server');
      await setGitRemotes('git@a:team/app.git', 'git@b:team/app.git');
      assert.deepEqual(await suggest(), [], 'two remotes, two servers');
      await setGitRemotes('git@203.0.113.8:team/app.git');
      assert.match((await suggest())[0] ?? '', /to the server parked\? The folder's git remote points at it\.$/);
    });

    it('never suggests a server labelled github.com or localhost for a remote on that host', async () => {
      h.mock.state.orders.push(
        orderRecord(5007, 'github.com', 'running', '203.0.113.9'),
        orderRecord(5008, 'localhost', 'running', '203.0.113.10'),
      );
      await h.store.refresh(['orders'], 'user');
      for (const url of ['git@github.com:team/app.git', 'ssh://localhost/srv/app.git', 'ssh://git@127.0.0.1/srv/app']) {
        await setGitRemotes(url);
        assert.deepEqual(await suggest(), [], url);
      }
    });

    it('never reads an Include of ~/.ssh/config that a symlink sends outside ~/.ssh', async () => {
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'folder-outside-'));
      restores.push(() => fs.rmSync(outside, { recursive: true, force: true }));
      fs.writeFileSync(path.join(outside, 'hosts'), 'Host web\n  HostName 203.0.113.5\n');
      writeSshConfig('Include linked\n');
      fs.symlinkSync(path.join(outside, 'hosts'), path.join(home, '.ssh', 'linked'));
      await setGitRemotes('git@web:team/app.git');
      assert.deepEqual(await suggest(), [], 'web is no server, and where the outside file sends it is not read');
      assert.match(await h.logText(), /~\/\.ssh\/config: left out outside/);
    });

    it('never suggests a server whose id another one has too, from the sources or from the settings', async () => {
      // A twin of web-01's id: both are shown and neither is acted on, so neither may be bound.
      h.mock.state.orders.push(orderRecord(5001, 'web-01-twin', 'running', '203.0.113.99'));
      await h.store.refresh(['orders'], 'user');
      assert.ok(h.store.orders.all.some((order) => order.duplicateId));
      await setGitRemotes('ssh://git@203.0.113.99/srv/app.git');
      assert.deepEqual(await suggest(), [], 'the twin matched by its address');
      await vscode.workspace
        .getConfiguration('hostingAccount', folder().uri)
        .update('folderServer', '5001', vscode.ConfigurationTarget.WorkspaceFolder);
      assert.deepEqual(await suggest(), [], 'the shared id named by the folder');
    });

    it('suggests nothing in Restricted Mode, neither from the sources nor from the settings', async () => {
      await setGitRemotes('git@203.0.113.5:team/app.git');
      await vscode.workspace
        .getConfiguration('hostingAccount', folder().uri)
        .update('folderServer', 'db-01', vscode.ConfigurationTarget.WorkspaceFolder);
      h.api.folderHooks.trusted = false;
      assert.deepEqual(await suggest(), []);
      h.api.folderHooks.trusted = true;
      assert.deepEqual(await suggest(), [
        `Bind the folder "${folder().name}" to the server db-01? The folder's settings name it as the folder's server.`,
      ]);
    });

    it("from the folder's settings: by name or id, once per folder and account; a user setting says nothing", async () => {
      const settings = vscode.workspace.getConfiguration('hostingAccount', folder().uri);
      await h.setSetting('folderServer', 'web-01');
      assert.deepEqual(await suggest(), [], 'the user setting is not the folder saying so');
      await settings.update('folderServer', '5002', vscode.ConfigurationTarget.WorkspaceFolder);
      assert.deepEqual(await suggest({ info: 'Bind' }), [
        `Bind the folder "${folder().name}" to the server db-01? The folder's settings name it as the folder's server.`,
      ]);
      await waitFor(() => h.api.folders.bindingOf(folder().uri)?.orderId === '5002', 'the binding');
      await h.api.folders.unbind(folder().uri);
      await setGitRemotes('git@203.0.113.5:team/app.git');
      assert.deepEqual(await suggest(), [], 'asked once for this account; the sources are not heard over it');
    });

    it('ignores hostile folderServer values: a URL, a key, user@host, a path, 1 MB; none is logged or reached', async () => {
      const decoy = await extraMock('decoy a folder setting must never reach');
      try {
        const settings = vscode.workspace.getConfiguration('hostingAccount', folder().uri);
        const values: Array<[string, string]> = [
          [decoy.url, 'url'],
          [`${decoy.url}/api/v1`, 'url'],
          ['https://evil.example/api/v1', 'url'],
          [h.mock.url.replace('http://', ''), 'url'],
          ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'keyLike'],
          ['Bearer abcdefghijklmnopqrstuvwxyz', 'keyLike'],
          ['a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8', 'keyLike'],
          ['root@web-01', 'userAtHost'],
          ['../web-01', 'path'],
          ['web-01\u202e', 'hiddenCharacters'],
          [`web-01${'x'.repeat(1024 * 1024)}`, 'tooLong'],
        ];
        for (const [value, problem] of values) {
          await settings.update('folderServer', value, vscode.ConfigurationTarget.WorkspaceFolder);
          assert.deepEqual(await suggest(), [], problem);
          assert.match(await h.logText(), new RegExp(`folderServer of the folder \\S+ refused \\(${problem}\\)`));
        }
        const log = await h.logText();
        const secretish = values.filter(([, problem]) => problem !== 'tooLong').map(([value]) => value);
        // The suite mock's own address is in every request line; the folder's copy of it is checked by the rest.
        for (const value of secretish.filter((value) => !h.mock.url.includes(value))) {
          assert.ok(!log.includes(value), `the log never holds ${value.slice(0, 20)}`);
        }
        assert.equal(decoy.requests.length, 0, 'the decoy was never reached');
        assert.equal(h.api.folders.bindingOf(folder().uri), undefined);
      } finally {
        await decoy.close();
      }
    });
  });

  describe('host keys after a reinstall', () => {
    let fake: FakeSshKeygen;
    beforeEach(() => {
      fake = new FakeSshKeygen({ known: { '203.0.113.5': 3, '[203.0.113.5]:2222': 4, '127.0.0.1': 7 } });
      h.api.ssh.sshKeygen = { file: path.join(fake.dir, 'ssh-keygen'), env: fake.env };
    });
    afterEach(() => fake.dispose());

    function recorded(id = '5001'): number | undefined {
      return readReinstalls(h.api.context.globalState.get(REINSTALLS_KEY)).servers.find((s) => s.orderId === id)?.at;
    }

    /** Answers the modals (showWarningMessage with { modal: true }) with `answer`; records their text. */
    function answerModals(answer: string | undefined): Array<{ message: string; detail?: string }> {
      const asked: Array<{ message: string; detail?: string }> = [];
      restores.push(
        stubWindow('showWarningMessage', (message: string, options?: vscode.MessageOptions) => {
          asked.push({ message, detail: options?.detail });
          return Promise.resolve(answer);
        }),
      );
      return asked;
    }

    function recordTerminals(): vscode.Terminal[] {
      const terminals: vscode.Terminal[] = [];
      const subscription = vscode.window.onDidOpenTerminal((terminal) => terminals.push(terminal));
      restores.push(() => {
        subscription.dispose();
        for (const terminal of terminals) terminal.dispose();
      });
      return terminals;
    }

    const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

    /** Gives a server these addresses (as one list, so a name is read too). */
    async function addressed(id: string, addresses: readonly string[]): Promise<void> {
      const record = h.mock.state.getOrder(id);
      assert.ok(record);
      (record as { ip: unknown }).ip = addresses;
      await h.store.refresh(['orders'], 'user');
    }

    /**
     * loopback also lists a public address (forgetting loopback's keys is never offered: it is this machine); ssh
     * goes to 127.0.0.1, picked from its two addresses, where a closing port makes it exit 255.
     */
    async function loopbackWithPublicAddress(): Promise<void> {
      await addressed('5004', ['203.0.113.9', '127.0.0.1']);
      answerPicks((items) => items.find((i) => i.label === '127.0.0.1'));
    }

    async function reinstall(name: string, id = '5001'): Promise<void> {
      await h.setSetting('notifyWhenReachable', false);
      const modals = stubWindow('showWarningMessage', () => Promise.resolve('Reinstall…'));
      const input = stubWindow('showInputBox', () => Promise.resolve(name));
      try {
        await vscode.commands.executeCommand('hostingAccount.order.reinstall', await node(name));
      } finally {
        modals();
        input();
      }
      await waitFor(() => !h.store.pending(id) && h.store.orders.get(id)?.state === 'running', 'settled', 10_000);
    }

    it('remembers our reinstall, offers to forget the old keys before Connect via SSH, and logs what went', async () => {
      await h.setSetting('ssh.port', 2222);
      await reinstall('web-01');
      await waitFor(() => recorded(), 'the reinstall remembered');
      const terminals = recordTerminals();
      const asked = answerModals('Forget Old Host Keys');
      await vscode.commands.executeCommand('hostingAccount.order.connectSsh', await node('web-01'));
      assert.equal(asked.length, 1);
      assert.equal(asked[0]?.message, 'web-01 was reinstalled since you last connected to it.');
      assert.match(asked[0]?.detail ?? '', /Forget the old host keys of 203\.0\.113\.5 \(ssh-keygen -R\)/);
      assert.deepEqual(fake.calls(), [
        ['-R', '203.0.113.5'],
        ['-R', '[203.0.113.5]:2222'],
      ]);
      await waitFor(() => terminals[0], 'the terminal after forgetting');
      assert.match(
        await h.logText(),
        /order 5001: ssh-keygen -R on port 2222: removed 203\.0\.113\.5 \(line 3\), \[203\.0\.113\.5\]:2222 \(line 4\)/,
      );
      assert.equal(recorded(), undefined, 'dealt with: not offered again');
    });

    it('connects without forgetting when asked to, and connects nowhere when the question is closed', async () => {
      await reinstall('web-01');
      await waitFor(() => recorded(), 'the reinstall remembered');
      const terminals = recordTerminals();
      answerModals(undefined);
      await vscode.commands.executeCommand('hostingAccount.order.openRemoteSsh', await node('web-01'));
      await vscode.commands.executeCommand('hostingAccount.order.connectSsh', await node('web-01'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(terminals.length, 0);
      assert.deepEqual(await vscode.commands.executeCommand<unknown[]>('remoteSshStandIn.calls', true), []);
      restores.pop()?.();
      restores.pop()?.();
      answerModals('Connect Without Forgetting');
      await vscode.commands.executeCommand('hostingAccount.order.openRemoteSsh', await node('web-01'));
      assert.equal((await vscode.commands.executeCommand<unknown[]>('remoteSshStandIn.calls', true)).length, 1);
      assert.deepEqual(fake.calls(), []);
      assert.ok(recorded() !== undefined, 'still remembered');
    });

    it('remembers a reinstall made elsewhere from the status word', async () => {
      h.mock.state.setOrderStatus(5001, 'reinstalling');
      await h.store.refresh(['orders'], 'user');
      await waitFor(() => recorded(), 'the outside reinstall remembered');
    });

    it('after ssh exits 255, says what may have happened and forgets only after a modal when no reinstall is known', async () => {
      const port = await closingPort();
      await h.setSetting('ssh.port', port);
      await loopbackWithPublicAddress();
      const terminals = recordTerminals();
      const told = messages({ warning: 'Forget Old Host Keys…', info: undefined });
      const modals = warnings(told, { modal: 'Forget Old Host Keys', notification: 'Forget Old Host Keys…' });
      await vscode.commands.executeCommand('hostingAccount.order.connectSsh', await node('loopback'));
      await waitFor(() => terminals[0], 'the terminal');
      const warning = await waitFor(
        () => told.shown.find((m) => m.message.startsWith('SSH to loopback ended with an error.')),
        'the warning after ssh exits 255',
        20_000,
      );
      assert.match(
        warning.message,
        /If it was not reinstalled, keep the key: someone may be between you and the server\./,
      );
      await waitFor(() => modals[0], 'the modal before forgetting');
      assert.deepEqual(modals, ['Forget the old host keys of loopback?']);
      // Said once every ssh-keygen has run.
      await waitFor(
        () => told.shown.find((m) => m.message === 'The old host keys of loopback are forgotten.'),
        'the news',
      );
      assert.deepEqual(fake.calls(), [
        ['-R', '203.0.113.9'],
        ['-R', `[203.0.113.9]:${port}`],
      ]);
    });

    it('after ssh exits 255 on a server reinstalled since, offers to forget at once and to connect again', async () => {
      const port = await closingPort();
      await h.setSetting('ssh.port', port);
      await loopbackWithPublicAddress();
      await reinstall('loopback', '5004');
      await waitFor(() => recorded('5004'), 'the reinstall remembered');
      const terminals = recordTerminals();
      const told = messages({ info: 'Connect Again' });
      const modals = warnings(told, { modal: 'Connect Without Forgetting', notification: 'Forget Old Host Keys…' });
      await vscode.commands.executeCommand('hostingAccount.order.connectSsh', await node('loopback'));
      assert.deepEqual(modals, ['loopback was reinstalled since you last connected to it.']);
      const warning = await waitFor(
        () => told.shown.find((m) => m.message.startsWith('SSH to loopback ended with an error.')),
        'the warning after ssh exits 255',
        20_000,
      );
      assert.match(
        warning.message,
        /The server was reinstalled since you last connected: if ssh refused its new host key/,
      );
      await waitFor(() => terminals.length === 2, 'a second terminal from Connect Again', 20_000);
      assert.equal(modals.length, 1, 'no second question: the reinstall is known, and dealt with once forgotten');
      assert.match(warning.message, /forget the old ones of 203\.0\.113\.9 and connect again\.$/);
      assert.deepEqual(fake.calls(), [
        ['-R', '203.0.113.9'],
        ['-R', `[203.0.113.9]:${port}`],
      ]);
      assert.equal(recorded('5004'), undefined);
    });

    it('forgets exactly the hosts it names: all of them, and never a shared host the server lists (github.com)', async () => {
      await addressed('5001', [
        '203.0.113.5',
        '203.0.113.51',
        '2001:db8::5',
        '203.0.113.52',
        'github.com',
        '203.0.113.53',
      ]);
      h.mock.state.setOrderStatus(5001, 'reinstalling');
      await h.store.refresh(['orders'], 'user');
      await waitFor(() => recorded(), 'the reinstall seen in the status word');
      h.mock.state.setOrderStatus(5001, 'running');
      await h.store.refresh(['orders'], 'user');
      recordTerminals();
      answerPicks((items) => items.find((i) => i.label === '203.0.113.5'));
      const asked = answerModals('Forget Old Host Keys');
      await vscode.commands.executeCommand('hostingAccount.order.connectSsh', await node('web-01'));
      const hosts = ['203.0.113.5', '203.0.113.51', '203.0.113.52', '203.0.113.53', '2001:db8::5'];
      assert.match(
        asked[0]?.detail ?? '',
        new RegExp(`Forget the old host keys of ${escape(hosts.join(', '))} \\(ssh-keygen -R\\)`),
      );
      assert.doesNotMatch(asked[0]?.detail ?? '', /github|…/);
      assert.deepEqual(
        fake.calls(),
        hosts.map((host) => ['-R', host]),
      );
    });

    it('offers at most eight addresses of a server, each named, and says the rest were left', async () => {
      const addresses = Array.from({ length: 11 }, (_, i) => `203.0.113.${60 + i}`);
      await addressed('5001', addresses);
      await reinstall('web-01');
      await waitFor(() => recorded(), 'the reinstall remembered');
      recordTerminals();
      answerPicks((items) => items.find((i) => i.label === addresses[0]));
      const asked = answerModals('Forget Old Host Keys');
      await vscode.commands.executeCommand('hostingAccount.order.connectSsh', await node('web-01'));
      const detail = asked[0]?.detail ?? '';
      assert.match(
        detail,
        new RegExp(
          `of ${escape(addresses.slice(0, 8).join(', '))}, but not the 3 other addresses the server lists \\(`,
        ),
      );
      assert.deepEqual(
        fake.calls(),
        addresses.slice(0, 8).map((host) => ['-R', host]),
      );
    });

    it('after forgetting the old keys first, an ssh that exits 255 is not blamed on them, nor offered to forget again', async () => {
      const port = await closingPort();
      await h.setSetting('ssh.port', port);
      await loopbackWithPublicAddress();
      await reinstall('loopback', '5004');
      await waitFor(() => recorded('5004'), 'the reinstall remembered');
      const terminals = recordTerminals();
      const told = messages({});
      const modals = warnings(told, { modal: 'Forget Old Host Keys', notification: undefined });
      await vscode.commands.executeCommand('hostingAccount.order.connectSsh', await node('loopback'));
      await waitFor(() => terminals[0], 'the terminal after forgetting');
      const warning = await waitFor(
        () => told.shown.find((m) => m.message.startsWith('SSH to loopback ended with an error.')),
        'the warning after ssh exits 255',
        20_000,
      );
      assert.match(warning.message, /Its old host keys were forgotten just before, so this is not about them/);
      assert.deepEqual(warning.options, [], 'no button');
      assert.deepEqual(modals, ['loopback was reinstalled since you last connected to it.']);
      assert.equal(fake.calls().length, 2);
    });
  });

  /** A loopback port that closes every connection at once: ssh gives up with exit code 255. */
  async function closingPort(): Promise<number> {
    const server = createServer((socket) => socket.destroy());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }
});
