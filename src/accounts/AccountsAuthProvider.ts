import * as vscode from 'vscode';
import { type Store } from '../store/Store';
import { type AccountRecord } from './accountList';

export const AUTH_PROVIDER_ID = 'hostingAccount';

/** What the provider reads: every account, and the store of one (whose `hasApiKey` says whether it is signed in). */
export interface AuthHost {
  readonly records: () => readonly AccountRecord[];
  readonly storeOf: (id: string) => Store | undefined;
  /** The tree node standing for an account: a command given it acts in that account without asking which. */
  readonly rowOf: (id: string) => unknown;
  /** Reads every account's key again now, rather than when the key store's change event arrives (Sign In waits). */
  readonly keysChanged: () => Promise<void>;
  /** Removes the key of one account on this machine (Sign Out). */
  readonly signOut: (id: string) => Promise<void>;
}

/**
 * The accounts in VS Code's Accounts menu: one session per account with a key on this machine, Sign Out removes that
 * key, Sign In runs Set API Key (the first account) or Add Account (the others), which check the key with `/me`. In a
 * window never set up, Sign In first asks for the API's address (Edit Account Address on the first account).
 *
 * The session's `accessToken` is the account's id, never its API key: any extension may ask for our sessions
 * (`vscode.authentication.getSession('hostingAccount', …)`, after a consent prompt), and the key may only ever travel
 * to its own API origin, through our own client. The token is an opaque, non-secret handle.
 */
export class AccountsAuthProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.emitter.event;
  private last = new Map<string, vscode.AuthenticationSession>();

  constructor(private readonly host: AuthHost) {
    this.last = this.current();
  }

  /** Called on every key or account change (here or, through `secrets.onDidChange`, in another window). */
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
    const [first] = this.host.records();
    const store = first && this.host.storeOf(first.id);
    if (first && store && !store.hasApiKey) {
      const row = this.host.rowOf(first.id);
      if (store.state === 'noBaseUrl' || store.state === 'badBaseUrl') {
        await vscode.commands.executeCommand('hostingAccount.account.editAddress', row);
      }
      if (store.state !== 'noBaseUrl' && store.state !== 'badBaseUrl') {
        await vscode.commands.executeCommand('hostingAccount.setApiKey', row);
      }
    } else {
      await vscode.commands.executeCommand('hostingAccount.account.add');
    }
    // The key was stored; the store hears of it a moment later through `secrets.onDidChange`: look now.
    await this.host.keysChanged();
    const created = [...this.current().values()].find((s) => !before.has(s.id));
    if (!created) throw new Error(vscode.l10n.t('Signing in to the hosting account was cancelled.'));
    this.update();
    return created;
  }

  async removeSession(sessionId: string): Promise<void> {
    await this.host.signOut(sessionId);
    this.update();
  }

  private current(): Map<string, vscode.AuthenticationSession> {
    const sessions = new Map<string, vscode.AuthenticationSession>();
    for (const record of this.host.records()) {
      if (!this.host.storeOf(record.id)?.hasApiKey) continue;
      const label = record.label || record.baseUrl || vscode.l10n.t('Hosting Account');
      sessions.set(record.id, {
        id: record.id,
        accessToken: record.id,
        account: { id: record.id, label },
        scopes: [],
      });
    }
    return sessions;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
