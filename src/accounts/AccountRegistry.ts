import * as vscode from 'vscode';
import { ACCOUNTS_STATE_KEY, readStoredAccounts, type StoredAccounts } from './accountList';

/**
 * The non-secret account list, in `globalState`: a workspace cannot change it (unlike settings, which a workspace
 * could shadow), and `setKeysForSync` lets Settings Sync carry it to the user's other machines. Keys are never synced,
 * so an account that arrives that way shows "no key on this machine" with a Set API Key action.
 */
export class AccountRegistry implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly memento: vscode.Memento & { setKeysForSync(keys: readonly string[]): void }) {
    memento.setKeysForSync([ACCOUNTS_STATE_KEY]);
  }

  get stored(): StoredAccounts {
    return readStoredAccounts(this.memento.get(ACCOUNTS_STATE_KEY));
  }

  async update(change: (stored: StoredAccounts) => StoredAccounts): Promise<void> {
    await this.memento.update(ACCOUNTS_STATE_KEY, change(this.stored));
    this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
