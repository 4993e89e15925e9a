import * as vscode from 'vscode';
import { type AccountModel } from '../accounts/AccountModel';
import { type FolderBindings } from '../folder/FolderBindings';
import { FOLDER_SERVER_SETTING, resolveFolderServer } from '../folder/folderSetting';
import { FolderGit, type GitExtension } from '../folder/git';
import { type FolderHooks } from '../folder/hooks';
import { NO_SSH_CONFIG, readSshConfig, type SshConfig } from '../folder/sshConfig';
import {
  type CandidateSource,
  folderCandidates,
  type FolderServer,
  folderServersOf,
  suggestServer,
} from '../folder/suggestServer';
import { type Log } from '../log';
import { forLog, forMessage } from '../notify/inert';
import { inAccount, tell } from '../notify/show';
import { type SshHooks } from '../ssh/hooks';
import { connectedHosts } from '../ssh/remoteWindow';
import { currentRemoteWindow } from '../ssh/thisWindow';
import { plain } from '../util/serverText';
import { Disposable } from '../util/lifecycle';

const MAX_FOLDERS = 32;
const SETTLE_MS = 300;

type Why = CandidateSource | 'teamFile';

/** Never binds by itself; reads and suggests nothing in Restricted Mode (the folder's settings are its content). */
export class FolderSuggestions extends Disposable {
  private timer?: ReturnType<typeof setTimeout>;
  private running?: Promise<void>;
  private again = false;
  private sshConfig?: Promise<SshConfig>;
  private readonly git = this.register(new FolderGit(() => this.schedule()));
  private gitAttached = false;
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
        this.forgetSources();
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

  forgetSources(): void {
    this.sshConfig = undefined;
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
    this.attachGit();
    for (const folder of folders) {
      if (this.disposed) return;
      if (this.bindings.bindingOf(folder.uri)) continue;
      if (await this.teamFile(folder, servers)) continue;
      if (this.bindings.wasSuggested(folder.uri, 'sources')) continue;
      const window = (this.ssh.remoteWindow ?? currentRemoteWindow)();
      const urls = this.git.remoteUrls(folder.uri);
      // No source of the folder's own, no suggestion: ~/.ssh/config only says where its hosts go.
      if (!urls.length && !connectedHosts(window).length) continue;
      const candidates = folderCandidates(window, urls, await this.readSshConfig());
      const suggestion = suggestServer(candidates, servers);
      if (suggestion.kind !== 'one') continue;
      await this.bindings.noteSuggested(folder.uri, 'sources');
      void this.offer(folder, suggestion.server, suggestion.sources);
    }
  }

  /** Undefined until every account with a key has listed its servers: a twin may be still to come. */
  private servers(): FolderServer[] | undefined {
    const servers: FolderServer[] = [];
    for (const account of this.model.accounts) {
      const { store } = account;
      if (!store.hasApiKey) continue;
      // An id two orders share is acted on nowhere.
      const listed = store.orders.all.filter((order) => !order.duplicateId);
      if (store.ordersInfo.updatedAt !== undefined) servers.push(...folderServersOf(account.id, listed));
      else if (store.state !== 'invalidKey' && store.state !== 'unreachable') return undefined;
    }
    return servers;
  }

  /** The folder's own setting (not the user's) names a server: its other sources are not heard. */
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

  private readSshConfig(): Promise<SshConfig> {
    const { home } = this.hooks;
    this.sshConfig ??=
      home === undefined
        ? Promise.resolve(NO_SSH_CONFIG)
        : readSshConfig(home).then((config) => {
            if (config.skipped.length) this.log.info(`~/.ssh/config: left out ${config.skipped.join(', ')}`);
            return config;
          });
    return this.sshConfig;
  }

  /** A workspace that never suggests never wakes the git extension. */
  private attachGit(): void {
    if (this.gitAttached) return;
    this.gitAttached = true;
    const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
    if (!extension) return;
    Promise.resolve(extension.isActive ? extension.exports : extension.activate()).then(
      (git) => this.git.attach(git),
      (error: unknown) => this.log.info(`the git extension did not start: ${forLog(String(error), 200)}`),
    );
  }

  private async offer(folder: vscode.WorkspaceFolder, server: FolderServer, why: readonly Why[]): Promise<void> {
    const account = this.model.get(server.accountId);
    if (!account) return;
    this.log.info(
      `suggesting order ${forLog(server.orderId, 80)} for the folder ${forLog(folder.name, 80)} (${why.join(', ')})`,
    );
    const bind = vscode.l10n.t('Bind');
    const later = vscode.l10n.t('Not Now');
    const question = bindQuestion(forMessage(folder.name, 80), forMessage(server.name, 80), why);
    const answer = await tell('info', inAccount(account.shownName(), question), bind, later);
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
      if (!live.has(id)) await this.bindings.unbindAccount(id).catch(() => undefined);
    }
  }

  private logOnce(folder: vscode.WorkspaceFolder, line: string): void {
    const key = `${folder.uri.toString()}\n${line}`;
    if (this.logged.has(key)) return;
    this.logged.add(key);
    this.log.info(line);
  }
}

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
  return vscode.l10n.t(
    'Bind the folder "{0}" to the server {1}? The folder\'s git remote points at it.',
    folder,
    server,
  );
}
