import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { type CommandContext } from './CommandContext';
import { UserCancelled } from './reportError';

/** Asks for the key in a password box and stores it only once `GET /me` has accepted it. */
export async function setApiKey(ctx: CommandContext): Promise<void> {
  const state = ctx.store.state;
  if (state === 'noBaseUrl' || state === 'badBaseUrl') {
    const open = vscode.l10n.t('Open Settings');
    const message = state === 'noBaseUrl'
      ? vscode.l10n.t('Set the address of your provider\'s API (hostingAccount.baseUrl) first.')
      : vscode.l10n.t('The base URL setting is not valid; correct it first.');
    if ((await vscode.window.showErrorMessage(message, open)) === open) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'hostingAccount.baseUrl');
    }
    return;
  }
  const key = (await vscode.window.showInputBox({
    title: vscode.l10n.t('Hosting: Set API Key'),
    prompt: vscode.l10n.t('Paste the API key from your provider\'s API keys page. It is kept in VS Code\'s secret storage.'),
    placeHolder: vscode.l10n.t('API key'),
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (/\s/.test(value.trim()) ? vscode.l10n.t('An API key has no spaces in it.') : undefined),
  }))?.trim();
  if (!key) throw new UserCancelled();

  let account;
  try {
    account = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the API key…') },
      () => ctx.store.verifyKey(key),
    );
  } catch (error) {
    if (isApiError(error) && error.kind === 'unauthorized') {
      ctx.log.warn('the key entered was rejected by the server; it was not stored');
      const again = vscode.l10n.t('Try Again');
      const page = vscode.l10n.t('Open API Keys Page');
      const picked = await vscode.window.showErrorMessage(
        vscode.l10n.t('The server rejected this API key, so it was not saved. Check that you copied all of it.'), again, page);
      if (picked === again) await vscode.commands.executeCommand('hostingAccount.setApiKey');
      if (picked === page) await vscode.commands.executeCommand('hostingAccount.openApiKeysPage');
      return;
    }
    throw error;
  }
  await ctx.keys.store(key);
  ctx.log.setSecret(key);
  ctx.store.adoptKey(account, key);
  const who = account.name ?? account.email ?? account.id;
  ctx.log.info(`API key saved${who ? ` for ${who}` : ''}`);
  void vscode.window.showInformationMessage(who
    ? vscode.l10n.t('API key saved. Signed in as {0}.', who)
    : vscode.l10n.t('API key saved.'));
}
