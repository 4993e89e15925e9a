import * as vscode from 'vscode';
import { Disposable } from '../util/lifecycle';
import { type Account } from './Account';
import { type AccountModel } from './AccountModel';

export const AUTH_PROVIDER_ID = 'hostingAccount';

// The session's `accessToken` is the account's id, never its API key: any extension may ask for our sessions (after a
// consent prompt), and the key may only ever travel to its own API origin, through our own client.
export class AccountsAuthProvider extends Disposable implements vscode.AuthenticationProvider {
  private readonly emitter = this.register(
    new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>(),
  );
  readonly onDidChangeSessions = this.emitter.event;
  private last: Map<string, vscode.AuthenticationSession>;

  constructor(private readonly model: AccountModel) {
    super();
    this.last = this.current();
    this.register(model.onDidChange(() => this.update()));
    this.register(model.onDidChangeState(() => this.update()));
    this.register(
      vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, vscode.l10n.t('Hosting Account'), this, {
        supportsMultipleAccounts: true,
      }),
    );
  }

  update(): void {
    const next = this.current();
    const added = [...next.values()].filter((s) => !this.last.has(s.id));
    const removed = [...this.last.values()].filter((s) => !next.has(s.id));
    const changed = [...next.values()].filter((s) => {
      const before = this.last.get(s.id);
      return before !== undefined && before.account.label !== s.account.label;
    });
    this.last = next;
    if (added.length || removed.length || changed.length) this.emitter.fire({ added, removed, changed });
  }

  getSessions(): Promise<vscode.AuthenticationSession[]> {
    // Scopes mean nothing here: an account key is all or nothing.
    return Promise.resolve([...this.current().values()]);
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    const before = this.current();
    const first = this.model.first;
    const noAddress = (): boolean => first.store.state === 'noBaseUrl' || first.store.state === 'badBaseUrl';
    if (!first.store.hasApiKey) {
      if (noAddress()) await vscode.commands.executeCommand('hostingAccount.account.editAddress', first);
      if (!noAddress()) await vscode.commands.executeCommand('hostingAccount.setApiKey', first);
    } else {
      await vscode.commands.executeCommand('hostingAccount.account.add');
    }
    // The store would hear of the key a moment later through `secrets.onDidChange`: look now.
    await this.model.keysChanged();
    const created = [...this.current().values()].find((s) => !before.has(s.id));
    if (!created) throw new Error(vscode.l10n.t('Signing in to the hosting account was cancelled.'));
    this.update();
    return created;
  }

  async removeSession(sessionId: string): Promise<void> {
    const account = this.model.get(sessionId);
    if (account) {
      await account.keys.delete();
      account.log.info('signed out from the Accounts menu (the key was removed)');
    }
    this.update();
  }

  private current(): Map<string, vscode.AuthenticationSession> {
    const sessions = new Map<string, vscode.AuthenticationSession>();
    for (const account of this.model.accounts) {
      if (account.store.hasApiKey) sessions.set(account.id, sessionOf(account));
    }
    return sessions;
  }
}

function sessionOf(account: Account): vscode.AuthenticationSession {
  const label = account.record.label || account.baseUrl || vscode.l10n.t('Hosting Account');
  return { id: account.id, accessToken: account.id, account: { id: account.id, label }, scopes: [] };
}
