import * as vscode from 'vscode';
import { type ConnectionState } from '../store/types';

/**
 * When a command cannot do its work because the extension is not connected yet, says so with the next step instead of
 * doing nothing. Returns false when the state lets the command go on.
 */
export async function explainNotConnected(state: ConnectionState, needsKey: boolean): Promise<boolean> {
  if (state === 'noBaseUrl' || state === 'badBaseUrl') {
    const open = vscode.l10n.t('Open Settings');
    const message =
      state === 'noBaseUrl'
        ? vscode.l10n.t("Set the address of your provider's API (hostingAccount.baseUrl) first.")
        : vscode.l10n.t('The base URL setting is not valid; correct it first.');
    if ((await vscode.window.showWarningMessage(message, open)) === open) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'hostingAccount.baseUrl');
    }
    return true;
  }
  if (needsKey && state === 'noKey') {
    const set = vscode.l10n.t('Set API Key…');
    const message = vscode.l10n.t(
      'Set the API key of your hosting account first: without it there is nothing to refresh.',
    );
    if ((await vscode.window.showInformationMessage(message, set)) === set) {
      await vscode.commands.executeCommand('hostingAccount.setApiKey');
    }
    return true;
  }
  return false;
}
