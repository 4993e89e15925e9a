import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { DEFAULT_ACCOUNT_ID } from '../accounts/accountList';
import { tell } from '../notify/show';

/** Says what is missing, with the next step, rather than doing nothing; false when the command can go on. */
export async function explainNotConnected(account: Account, needsKey: boolean): Promise<boolean> {
  const { state } = account.store;
  if (state === 'noBaseUrl' || state === 'badBaseUrl') {
    const fix = vscode.l10n.t('Edit Account Address');
    const message =
      account.id !== DEFAULT_ACCOUNT_ID
        ? vscode.l10n.t('The address of the account {0} is not valid; correct it first.', account.name)
        : state === 'noBaseUrl'
          ? vscode.l10n.t("Set the address of your provider's API (hostingAccount.baseUrl) first.")
          : vscode.l10n.t('The base URL setting is not valid; correct it first.');
    if ((await tell('warning', message, fix)) === fix) {
      await vscode.commands.executeCommand('hostingAccount.account.editAddress', account);
    }
    return true;
  }
  if (needsKey && state === 'noKey') {
    const set = vscode.l10n.t('Set API Key…');
    const message = account.shownName()
      ? vscode.l10n.t('Set the API key of the account {0} first: without it there is nothing to refresh.', account.name)
      : vscode.l10n.t('Set the API key of your hosting account first: without it there is nothing to refresh.');
    if ((await tell('info', message, set)) === set) {
      await vscode.commands.executeCommand('hostingAccount.setApiKey', account);
    }
    return true;
  }
  return false;
}
