import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { tell } from '../notify/show';

/** The account's own provider's API keys page (its website, else its API's address). */
export async function openApiKeysPage(account: Account): Promise<void> {
  const url = account.apiKeysPageUrl;
  if (!url) {
    const edit = vscode.l10n.t('Edit Account Address');
    const picked = await tell(
      'warning',
      vscode.l10n.t("Set the address of your provider's API first, to open its API keys page."),
      edit,
    );
    if (picked === edit) await vscode.commands.executeCommand('hostingAccount.account.editAddress', account);
    return;
  }
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
