import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';

export async function removeApiKey(account: Account): Promise<void> {
  // The key store announces the change; the account's one listener updates its store.
  await account.keys.delete();
  account.log.info('API key removed');
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Hosting: API key removed'), 4_000);
}
