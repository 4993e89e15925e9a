import * as vscode from 'vscode';
import { parseBaseUrl } from '../api/baseUrl';
import {
  addAccount as added,
  DEFAULT_ACCOUNT_ID,
  newAccountId,
  removeAccount as removed,
  renameAccount as renamed,
  MAX_LABEL_LENGTH,
  type AccountRecord,
} from '../accounts/accountList';
import { type CommandContext } from './CommandContext';
import { setApiKey } from './setApiKey';
import { UserCancelled } from './UserCancelled';

/**
 * Adds an account: its API's base URL, a name, then its key, checked with `GET /me` by the same box as Set API Key
 * (in the new account's own store). Cancelling the key leaves nothing behind.
 */
export async function addAccount(ctx: CommandContext): Promise<void> {
  const accounts = ctx.accounts();
  const stored = accounts.registry.stored;
  const baseUrl = await ask({
    title: vscode.l10n.t('Hosting: Add Account'),
    prompt: vscode.l10n.t("The address of the provider's API, for example https://panel.example.com"),
    validate: (value) => {
      try {
        parseBaseUrl(value);
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
  });
  const href = parseBaseUrl(baseUrl).href;
  const label = await ask({
    title: vscode.l10n.t('Hosting: Add Account'),
    prompt: vscode.l10n.t('A name for this account, shown in the tree'),
    value: new URL(href).host,
    validate: (value) => (value.trim() ? undefined : vscode.l10n.t('Enter a name.')),
  });
  const id = newAccountId(stored);
  await accounts.registry.update((current) => added(current, { id, label, baseUrl: href }));
  const where = accounts.contextOf(id);
  try {
    if (!where) throw new UserCancelled();
    // A new store knows it has no key only once it has looked: until then Set API Key would call it unconfigured.
    await where.store.keyChanged();
    await setApiKey(where);
  } catch (error) {
    // No key, no account: the list only ever holds accounts the user finished adding.
    await accounts.registry.update((current) => removed(current, id));
    throw error;
  }
  ctx.log.info(`account added (${href})`);
}

export async function renameAccount(ctx: CommandContext, arg: unknown): Promise<void> {
  const account = await pickAccount(ctx, arg, vscode.l10n.t('Hosting: Rename Account'), true);
  const label = await ask({
    title: vscode.l10n.t('Hosting: Rename Account'),
    prompt: vscode.l10n.t('A new name for this account'),
    value: account.label,
    validate: (value) => (value.trim() ? undefined : vscode.l10n.t('Enter a name.')),
  });
  await ctx.accounts().registry.update((current) => renamed(current, account.id, label));
}

/** Removes an added account and its key from this machine. The first account is the settings: only its key goes. */
export async function removeAccount(ctx: CommandContext, arg: unknown): Promise<void> {
  const account = await pickAccount(ctx, arg, vscode.l10n.t('Hosting: Remove Account'), false);
  const remove = vscode.l10n.t('Remove');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Remove the account "{0}" and its API key from VS Code?', account.label),
    { modal: true, detail: vscode.l10n.t('Your servers are not touched; you can add the account again later.') },
    remove,
  );
  if (answer !== remove) return;
  const accounts = ctx.accounts();
  const where = accounts.contextOf(account.id);
  // The list first: its store is freed at once, so no answer of this account can still arrive and show.
  await accounts.registry.update((current) => removed(current, account.id));
  await where?.keys.delete();
  ctx.log.info('account removed');
}

/** The account a command acts on: the row it was invoked on, the only one there is, or the user's pick. */
async function pickAccount(
  ctx: CommandContext,
  arg: unknown,
  title: string,
  withFirst: boolean,
): Promise<AccountRecord> {
  const accounts = ctx.accounts();
  const records = accounts.records.filter((r) => withFirst || r.id !== DEFAULT_ACCOUNT_ID);
  const row = accounts.tree.partOf(arg)?.record;
  const chosen = row ? records.find((r) => r.id === row.id) : records.length === 1 ? records[0] : undefined;
  if (chosen) return chosen;
  if (row || !records.length) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'The first account is your hostingAccount.baseUrl setting. Use Remove API Key to sign it out on this machine.',
      ),
    );
    throw new UserCancelled();
  }
  const pick = await vscode.window.showQuickPick(
    records.map((record) => ({ label: record.label, description: record.baseUrl, record })),
    { title, placeHolder: vscode.l10n.t('Choose an account') },
  );
  if (!pick) throw new UserCancelled();
  return pick.record;
}

function ask(options: {
  title: string;
  prompt: string;
  value?: string;
  validate: (value: string) => string | undefined;
}): Promise<string> {
  return Promise.resolve(
    vscode.window.showInputBox({
      title: options.title,
      prompt: options.prompt,
      value: options.value,
      ignoreFocusOut: true,
      validateInput: (value) => options.validate(value.slice(0, 2048)),
    }),
  ).then((value) => {
    if (value === undefined) throw new UserCancelled();
    return value.trim().slice(0, Math.max(2048, MAX_LABEL_LENGTH));
  });
}
