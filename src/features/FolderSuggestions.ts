import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { type CandidateSource, type FolderCandidates, folderCandidates } from '../folder/candidates';
import { nodeFileReader } from '../folder/fileReader';
import { type FolderBindings } from '../folder/FolderBindings';
import { FOLDER_SERVER_SETTING, resolveFolderServer } from '../folder/folderSetting';
import { type FolderHooks } from '../folder/hooks';
import { type FolderServer, folderServersOf } from '../folder/servers';
import { suggestServer } from '../folder/suggestServer';
import { type Log } from '../log';
import { forLog, forMessage } from '../notify/inert';
import { tell } from '../notify/show';
import { type SshHooks } from '../ssh/hooks';
import { currentRemoteWindow } from '../ssh/thisWindow';
import { plain } from '../util/serverText';
import { Disposable } from '../util/lifecycle';

/** Folders of a multi-root workspace looked at, at most. */
const MAX_FOLDERS = 32;
/** Changes arriving together (a list read, several settings) make one check. */
const SETTLE_MS = 300;

type Why = CandidateSource | 'teamFile';

/**
 * Suggests a server for a workspace folder that has none, never binding it by itself: once per folder when exactly
 * one server (across every account) matches what the folder says of itself (this window's Remote-SSH host, its git
 * remotes, then the hosts of `~/.ssh/config`), and once per folder and account when the folder's settings name one
 * (`hostingAccount.folderServer`, a team's `.vscode/settings.json`). A folder's settings only pick among the servers
 * already listed, so a folder can never make the extension talk to another origin or use another key. Nothing is
 * read or suggested in Restricted Mode. Also keeps the bindings tidy: an account removed takes its bindings with it.
 */
export class FolderSuggestions extends Disposable {
  private timer?: ReturnType<typeof setTimeout>;
  private running?: Promise<void>;
  private again = false;
  /** Each folder's sources, read once a session (the files rarely change; a workspace change reads them again). */
  private readonly candidates = new Map<string, Promise<FolderCandidates>>();
  /** What was logged about a folder's setting, so a refresh every minute does not repeat it. */
  private readonly logged = new Set<string>();

  constructor(
    private readonly model: AccountModel,
    private readonly bindings: FolderBindings,
    private readonly hooks: FolderHooks,
    private readonly ssh: SshHooks,
    private readonly log: Log,
  ) {
    super();
    this.register(model.onDidChangeData(({ value }) => value === 'orders' && this.schedule()));
    this.register(model.onDidChangeState(() => this.schedule()));
    this.register(
      model.onDidChange(() => {
        void this.dropRemovedAccounts();
        this.schedule();
      }),
    );
    this.register(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.candidates.clear();
        this.schedule();
      }),
    );
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.schedule()));
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(FOLDER_SERVER_SETTING)) this.schedule();
      }),
    );
    this.register({ dispose: () => clearTimeout(this.timer) });
  }

  /** Looks now (the tests wait for it); a check already running is followed by another. */
  async check(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.checkFolders().finally(() => (this.running = undefined));
    await this.running;
    if (this.again) {
      this.again = false;
      await this.check();
    }
  }

  /** Forgets the sources read, so the next check reads them again (the tests change them). */
  forgetSources(): void {
    this.candidates.clear();
  }

  private schedule(): void {
    if (this.disposed || this.timer) return;
    this.timer = setTimeout(() => void this.check(), SETTLE_MS);
  }

  private async checkFolders(): Promise<void> {
    if (!this.hooks.suggest || !(this.hooks.trusted ?? vscode.workspace.isTrusted)) return;
    const folders = (vscode.workspace.workspaceFolders ?? []).slice(0, MAX_FOLDERS);
    if (!folders.length) return;
    const servers = this.servers();
    if (!servers?.length) return;
    for (const folder of folders) {
      if (this.disposed) return;
      if (this.bindings.bindingOf(folder.uri)) continue;
      if (await this.teamFile(folder, servers)) continue;
      if (this.bindings.wasSuggested(folder.uri, 'sources')) continue;
      const suggestion = suggestServer((await this.sourcesOf(folder)).candidates, servers);
      if (suggestion.kind !== 'one') continue;
      await this.bindings.noteSuggested(folder.uri, 'sources');
      void this.offer(folder, suggestion.server, suggestion.sources);
    }
  }

  /**
   * The servers of every account, once every account with a key has listed them (or cannot): a server that matches in
   * one account could have a twin in another not listed yet. Undefined while some are still to come.
   */
  private servers(): FolderServer[] | undefined {
    const servers: FolderServer[] = [];
    for (const account of this.model.accounts) {
      const { store } = account;
      if (!store.hasApiKey) continue;
      // An order whose id another one has too is acted on nowhere, so it is never offered as the folder's server.
      const listed = store.orders.all.filter((order) => !order.duplicateId);
      if (store.ordersInfo.updatedAt !== undefined) servers.push(...folderServersOf(account.id, listed));
      else if (store.state !== 'invalidKey' && store.state !== 'unreachable') return undefined;
    }
    return servers;
  }

  /**
   * The folder's own setting (only its folder or workspace value: a user setting says nothing of this folder). True
   * when it names a server, suggested now or before, so the folder's sources are not heard on top of it.
   */
  private async teamFile(folder: vscode.WorkspaceFolder, servers: readonly FolderServer[]): Promise<boolean> {
    const inspected = vscode.workspace
      .getConfiguration('hostingAccount', folder.uri)
      .inspect<unknown>(FOLDER_SERVER_SETTING.slice('hostingAccount.'.length));
    const value = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
    if (value === undefined) return false;
    const found = resolveFolderServer(value, servers);
    if (found.kind !== 'found') {
      // Never the value itself: it may be a key someone pasted.
      const why =
        found.kind === 'invalid'
          ? `refused (${found.problem})`
          : `names ${found.kind === 'several' ? 'several servers' : 'no server'}`;
      this.logOnce(folder, `${FOLDER_SERVER_SETTING} of the folder ${forLog(folder.name, 80)} ${why}; not suggested`);
      return false;
    }
    const { server } = found;
    if (this.bindings.wasSuggested(folder.uri, 'teamFile', server.accountId)) return true;
    await this.bindings.noteSuggested(folder.uri, 'teamFile', server.accountId);
    void this.offer(folder, server, ['teamFile']);
    return true;
  }

  private sourcesOf(folder: vscode.WorkspaceFolder): Promise<FolderCandidates> {
    const key = folder.uri.toString();
    let read = this.candidates.get(key);
    if (!read) {
      read = folderCandidates({
        // A remote folder's files are not on this machine (the extension runs on the user's side).
        folder: folder.uri.scheme === 'file' ? folder.uri.fsPath : undefined,
        home: this.hooks.home,
        reader: nodeFileReader,
        window: (this.ssh.remoteWindow ?? currentRemoteWindow)(),
      }).then((found) => {
        if (found.limited.length) {
          this.log.info(
            `the sources of the folder ${forLog(folder.name, 80)} were cut short: ${found.limited.join(', ')}`,
          );
        }
        return found;
      });
      this.candidates.set(key, read);
    }
    return read;
  }

  /** One notification, with Bind and Not Now; nothing is bound unless the user says so. */
  private async offer(folder: vscode.WorkspaceFolder, server: FolderServer, why: readonly Why[]): Promise<void> {
    const account = this.model.get(server.accountId);
    if (!account) return;
    this.log.info(
      `suggesting order ${forLog(server.orderId, 80)} for the folder ${forLog(folder.name, 80)} (${why.join(', ')})`,
    );
    const bind = vscode.l10n.t('Bind');
    const later = vscode.l10n.t('Not Now');
    const question = bindQuestion(forMessage(folder.name, 80), forMessage(server.name, 80), why);
    const answer = await tell('info', inAccount(account, question), bind, later);
    if (answer !== bind) return;
    const order = this.model.get(server.accountId)?.store.orders.get(server.orderId);
    if (!order) {
      void tell(
        'info',
        vscode.l10n.t('{0} is no longer listed; the folder was not bound.', forMessage(server.name, 80)),
      );
      return;
    }
    await this.bindings.bind(folder.uri, { accountId: account.id, orderId: order.id, name: plain(order.label) });
    this.log.info(`the folder ${forLog(folder.name, 80)} is bound to order ${forLog(order.id, 80)}`);
  }

  private async dropRemovedAccounts(): Promise<void> {
    const live = new Set(this.model.accounts.map((account) => account.id));
    for (const id of this.bindings.accountIds()) {
      if (!live.has(id)) await this.bindings.unbindServers(id).catch(() => undefined);
    }
  }

  private logOnce(folder: vscode.WorkspaceFolder, line: string): void {
    const key = `${folder.uri.toString()}\n${line}`;
    if (this.logged.has(key)) return;
    this.logged.add(key);
    this.log.info(line);
  }
}

/** The question says why this server, as one sentence for each way the sources can name it. */
function bindQuestion(folder: string, server: string, why: readonly Why[]): string {
  if (why.includes('teamFile')) {
    return vscode.l10n.t(
      'Bind the folder "{0}" to the server {1}? The folder\'s settings name it as the folder\'s server.',
      folder,
      server,
    );
  }
  if (why.includes('remoteSsh') && why.includes('gitRemote')) {
    return vscode.l10n.t(
      'Bind the folder "{0}" to the server {1}? This window is connected to it over Remote-SSH, and the folder\'s git remote points at it.',
      folder,
      server,
    );
  }
  if (why.includes('remoteSsh')) {
    return vscode.l10n.t(
      'Bind the folder "{0}" to the server {1}? This window is connected to it over Remote-SSH.',
      folder,
      server,
    );
  }
  if (why.includes('gitRemote')) {
    return vscode.l10n.t(
      'Bind the folder "{0}" to the server {1}? The folder\'s git remote points at it.',
      folder,
      server,
    );
  }
  return vscode.l10n.t('Bind the folder "{0}" to the server {1}? Your SSH config names it.', folder, server);
}

function inAccount(account: Account, message: string): string {
  const name = account.shownName();
  return name ? vscode.l10n.t('Account {0}: {1}', forMessage(name, 60), message) : message;
}
