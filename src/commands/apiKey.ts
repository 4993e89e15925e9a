import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { ApiError } from '../api/errors';
import { type Account as AccountDetails } from '../api/models';
import { forLog, forMessage } from '../notify/inert';
import { inAccount, tell } from '../notify/show';
import { explainNotConnected } from './notConnected';
import { UserCancelled } from './UserCancelled';

/** Stored only once `GET /me` accepted it; a rejected key keeps the box open with the reason, to paste again. */
export async function setApiKey(account: Account): Promise<void> {
  if (await explainNotConnected(account, false)) return;
  const { key, details } = await askAndVerify(account);
  // The key store announces the change; the account's one listener updates the log's masks and its store.
  await account.keys.store(key);
  const who = details.name ?? details.email ?? details.id;
  account.log.info(`API key saved${who ? ` for ${forLog(who, 80)}` : ''}`);
  const signedIn = who
    ? vscode.l10n.t('API key saved. Signed in as {0}.', forMessage(who, 80))
    : vscode.l10n.t('API key saved.');
  void tell('info', inAccount(account.shownName(), signedIn));
}

export async function removeApiKey(account: Account): Promise<void> {
  await account.keys.delete();
  account.log.info('API key removed');
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Hosting: API key removed'), 4_000);
}

// The website's, else the API's address.
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

// What can travel in an HTTP header: visible ASCII.
const SENDABLE = /^[\x21-\x7e]+$/;

function askAndVerify(account: Account): Promise<{ key: string; details: AccountDetails }> {
  return new Promise((resolve, reject) => {
    const box = vscode.window.createInputBox();
    const name = account.shownName();
    const prompt = vscode.l10n.t(
      "Paste the API key from your provider's API keys page. It is kept in VS Code's secret storage.",
    );
    box.title = name ? vscode.l10n.t('Hosting: Set API Key of {0}', name) : vscode.l10n.t('Hosting: Set API Key');
    box.prompt = prompt;
    box.placeholder = vscode.l10n.t('API key');
    box.password = true;
    box.ignoreFocusOut = true;
    let settled = false;
    const finish = (action: () => void): void => {
      settled = true;
      box.hide();
      action();
    };
    const subscriptions = [
      box.onDidChangeValue((value) => {
        box.validationMessage =
          !value.trim() || SENDABLE.test(value.trim())
            ? undefined
            : vscode.l10n.t('An API key has no spaces, line breaks or accented letters in it.');
      }),
      box.onDidAccept(
        () =>
          void (async () => {
            const key = box.value.trim();
            if (!key || box.busy || !SENDABLE.test(key)) return;
            // Masked from here on: a server may echo the key being checked into an error or a header.
            account.log.setSecret(key);
            box.busy = true;
            box.enabled = false;
            box.validationMessage = undefined;
            box.prompt = vscode.l10n.t('Checking the key with the hosting API…');
            try {
              const details = await account.store.verifyKey(key);
              finish(() => resolve({ key, details }));
            } catch (error) {
              if (error instanceof ApiError && error.kind === 'unauthorized') {
                account.log.warn('the key entered was rejected by the server; it was not stored');
                box.busy = false;
                box.enabled = true;
                box.prompt = prompt;
                box.validationMessage = vscode.l10n.t(
                  'The hosting API rejected this API key, so it was not saved. Check that you copied all of it.',
                );
                return;
              }
              finish(() => reject(error instanceof Error ? error : new Error(String(error))));
            }
          })(),
      ),
      box.onDidHide(() => {
        for (const subscription of subscriptions) subscription.dispose();
        box.dispose();
        if (!settled) reject(new UserCancelled());
      }),
    ];
    box.show();
  });
}
