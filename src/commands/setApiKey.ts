import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { type Account } from '../api/models';
import { type CommandContext } from './CommandContext';
import { explainNotConnected } from './notConnected';
import { UserCancelled } from './UserCancelled';

/**
 * Asks for the key in a password box and stores it only once `GET /me` has accepted it. The check runs inside the
 * box (busy, then closed on success), and a rejected key keeps the box open with the reason, so the user can paste
 * again without starting over.
 */
export async function setApiKey(ctx: CommandContext): Promise<void> {
  if (await explainNotConnected(ctx.store.state, false)) return;
  const { key, account } = await askAndVerify(ctx);
  // The key store announces the change; its one listener updates the log's masks and the store.
  await ctx.keys.store(key);
  const who = account.name ?? account.email ?? account.id;
  ctx.log.info(`API key saved${who ? ` for ${who}` : ''}`);
  void vscode.window.showInformationMessage(
    who ? vscode.l10n.t('API key saved. Signed in as {0}.', who) : vscode.l10n.t('API key saved.'),
  );
}

/** What can travel in an HTTP header: visible ASCII. */
const SENDABLE = /^[\x21-\x7e]+$/;

function askAndVerify(ctx: CommandContext): Promise<{ key: string; account: Account }> {
  return new Promise((resolve, reject) => {
    const box = vscode.window.createInputBox();
    box.title = vscode.l10n.t('Hosting: Set API Key');
    box.prompt = vscode.l10n.t(
      "Paste the API key from your provider's API keys page. It is kept in VS Code's secret storage.",
    );
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
            ctx.log.setSecret(key);
            box.busy = true;
            box.enabled = false;
            box.validationMessage = undefined;
            box.prompt = vscode.l10n.t('Checking the key with the hosting API…');
            try {
              const account = await ctx.store.verifyKey(key);
              finish(() => resolve({ key, account }));
            } catch (error) {
              if (error instanceof ApiError && error.kind === 'unauthorized') {
                ctx.log.warn('the key entered was rejected by the server; it was not stored');
                box.busy = false;
                box.enabled = true;
                box.prompt = vscode.l10n.t(
                  "Paste the API key from your provider's API keys page. It is kept in VS Code's secret storage.",
                );
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
