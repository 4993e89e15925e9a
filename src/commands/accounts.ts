import * as vscode from 'vscode';
import { parseBaseUrl } from '../api/baseUrl';
import {
  addAccount as added,
  DEFAULT_ACCOUNT_ID,
  editAccountAddress as withAddress,
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
    validate: baseUrlProblem,
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

/**
 * Moves an account to another address (its API's base URL, and its website's). The key stays with the account, and is
 * sent to the new origin only once the user confirmed that: the key goes to whatever address is configured. Nothing
 * answered by the old address shows under the new one: the first account's store starts over when its setting
 * changes, an added account's store is built anew.
 */
export async function editAccountAddress(ctx: CommandContext, arg: unknown): Promise<void> {
  const title = vscode.l10n.t('Hosting: Edit Account Address');
  const account = await pickAccount(ctx, arg, title, true);
  const where = ctx.accounts().contextOf(account.id);
  if (!where) throw new UserCancelled();
  const baseUrl = parseBaseUrl(
    await ask({
      title,
      prompt: vscode.l10n.t("The address of the provider's API, for example https://panel.example.com"),
      value: account.baseUrl,
      validate: baseUrlProblem,
    }),
  ).href;
  // A window being set up (Sign In from the Accounts menu) is asked the API's address only; the website can wait.
  const websiteUrl = account.baseUrl ? await askWebsite(title, account.websiteUrl) : account.websiteUrl;
  const moved = baseUrl !== account.baseUrl;
  if (!moved && websiteUrl === account.websiteUrl) return;
  if (moved && where.store.hasApiKey) await confirmMove(account, baseUrl);
  if (account.id === DEFAULT_ACCOUNT_ID) {
    // The first account is the settings: user scope, as the settings are only read from there.
    const config = vscode.workspace.getConfiguration('hostingAccount');
    if (websiteUrl !== account.websiteUrl) {
      await config.update('websiteUrl', websiteUrl, vscode.ConfigurationTarget.Global);
    }
    if (moved) {
      await config.update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
      await settingApplied(() => where.settings().baseUrl === baseUrl);
    }
  } else {
    await ctx.accounts().registry.update((current) => withAddress(current, account.id, { baseUrl, websiteUrl }));
  }
  ctx.log.info(`account address changed${moved ? ` to ${new URL(baseUrl).origin}` : ' (website)'}`);
}

async function askWebsite(title: string, current: string | undefined): Promise<string | undefined> {
  const value = await ask({
    title,
    prompt: vscode.l10n.t(
      "The address of the provider's website, for its API keys page. Leave it empty to use the API's address.",
    ),
    value: current ?? '',
    validate: (text) => (text.trim() ? baseUrlProblem(text) : undefined),
  });
  return value ? parseBaseUrl(value).href : undefined;
}

async function confirmMove(account: AccountRecord, baseUrl: string): Promise<void> {
  const change = vscode.l10n.t('Change Address');
  const origin = new URL(baseUrl).origin;
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Send the API key of "{0}" to {1} from now on?', account.label, origin),
    {
      modal: true,
      detail: vscode.l10n.t(
        'The key goes with every request to the address set for this account, so it will be sent to {0}. Change the address only to one of your provider you trust. What the old address answered is cleared.',
        origin,
      ),
    },
    change,
  );
  if (answer !== change) throw new UserCancelled();
}

/** Waits (bounded) until the extension has read the setting just written: the next step must see the new address. */
function settingApplied(done: () => boolean): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    };
    const timer = setTimeout(finish, 5_000);
    // Registered after the composition root's listener, so the settings are read again when this one runs.
    const subscription = vscode.workspace.onDidChangeConfiguration(() => done() && finish());
  });
}

/** The base URL rules (https, plain http only on loopback, …) in the words a validation message shows. */
function baseUrlProblem(value: string): string | undefined {
  try {
    parseBaseUrl(value);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
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
