import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { DEFAULT_ACCOUNT_ID, MAX_LABEL_LENGTH, newAccountId } from '../accounts/accountList';
import { parseBaseUrl } from '../api/baseUrl';
import { ApiError } from '../api/errors';
import { forLabel } from '../notify/inert';
import { reasonText } from '../notify/reasonText';
import { confirm, tell } from '../notify/show';
import { type CommandHost } from './CommandHost';
import { setApiKey } from './setApiKey';
import { UserCancelled } from './UserCancelled';

/**
 * Adds an account: its API's base URL, a name, then its key, checked with `GET /me` by the same box as Set API Key
 * (in the new account's own store). Cancelling the key leaves nothing behind.
 */
export async function addAccount(host: CommandHost): Promise<void> {
  const { model } = host;
  const baseUrl = await ask({
    title: vscode.l10n.t('Hosting: Add Account'),
    prompt: vscode.l10n.t("The address of the provider's API, for example https://panel.example.com"),
    validate: baseUrlProblem,
  });
  const href = parseBaseUrl(baseUrl).href;
  const apiHost = new URL(href).host;
  let suggested = apiHost;
  for (let n = 2; model.nameInUse(suggested); n++) suggested = `${apiHost} (${n})`;
  const label = await ask({
    title: vscode.l10n.t('Hosting: Add Account'),
    prompt: vscode.l10n.t('A name for this account, shown in the tree'),
    value: suggested,
    validate: (value) => nameProblem(host, value),
  });
  const id = newAccountId(model.registry.stored);
  const account = await model.add({ id, label, baseUrl: href });
  try {
    // A new store knows it has no key only once it has looked: until then Set API Key would call it unconfigured.
    await account.keyChanged();
    await setApiKey(host, account);
    if (!account.store.hasApiKey) await account.keyChanged();
    if (!account.store.hasApiKey) throw new UserCancelled();
  } catch (error) {
    // No key, no account: the list only ever holds accounts the user finished adding.
    await model.remove(id);
    throw error;
  }
  host.log.info(`account added (${href})`);
}

export async function renameAccount(host: CommandHost, arg: unknown): Promise<void> {
  const account = await pickAccount(host, arg, vscode.l10n.t('Hosting: Rename Account'), true);
  const label = await ask({
    title: vscode.l10n.t('Hosting: Rename Account'),
    prompt: vscode.l10n.t('A new name for this account'),
    value: account.record.label,
    validate: (value) => nameProblem(host, value, account.id),
  });
  await host.model.rename(account.id, label);
}

/** Removes an added account and its key from this machine. The first account is the settings: only its key goes. */
export async function removeAccount(host: CommandHost, arg: unknown): Promise<void> {
  const account = await pickAccount(host, arg, vscode.l10n.t('Hosting: Remove Account'), false);
  const sure = await confirm(
    vscode.l10n.t('Remove the account "{0}" and its API key from VS Code?', account.name),
    vscode.l10n.t('Your servers are not touched; you can add the account again later.'),
    vscode.l10n.t('Remove'),
  );
  if (!sure) return;
  // The list first: its store is freed at once, so no answer of this account can still arrive and show.
  await host.model.remove(account.id);
  host.log.info('account removed');
}

/**
 * Moves an account to another address (its API's base URL, and its website's). The key stays with the account, and is
 * sent to the new origin only once the user confirmed that: the key goes to whatever address is configured. Nothing
 * answered by the old address shows under the new one: the first account's store starts over when its setting
 * changes, an added account's store is built anew.
 */
export async function editAccountAddress(host: CommandHost, arg: unknown): Promise<void> {
  const title = vscode.l10n.t('Hosting: Edit Account Address');
  const where = await pickAccount(host, arg, title, true);
  const account = where.record;
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
  if (moved && where.store.hasApiKey) await confirmMove(where, baseUrl);
  if (account.id === DEFAULT_ACCOUNT_ID) {
    // The first account is the settings: user scope, as the settings are only read from there.
    const config = vscode.workspace.getConfiguration('hostingAccount');
    if (websiteUrl !== account.websiteUrl) {
      await config.update('websiteUrl', websiteUrl, vscode.ConfigurationTarget.Global);
    }
    if (moved) {
      await config.update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
      await settingApplied(() => where.baseUrl === baseUrl);
    }
  } else {
    await host.model.setAddress(account.id, { baseUrl, websiteUrl });
  }
  host.log.info(`account address changed${moved ? ` to ${new URL(baseUrl).origin}` : ' (website)'}`);
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

async function confirmMove(account: Account, baseUrl: string): Promise<void> {
  const origin = new URL(baseUrl).origin;
  const sure = await confirm(
    vscode.l10n.t('Send the API key of "{0}" to {1} from now on?', account.name, origin),
    vscode.l10n.t(
      'The key goes with every request to the address set for this account, so it will be sent to {0}. Change the address only to one of your provider you trust. What the old address answered is cleared.',
      origin,
    ),
    vscode.l10n.t('Change Address'),
  );
  if (!sure) throw new UserCancelled();
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

function nameProblem({ model }: CommandHost, value: string, except?: string): string | undefined {
  if (!value.trim()) return vscode.l10n.t('Enter a name.');
  if (model.nameInUse(value, except)) {
    return vscode.l10n.t('Another account is called that. Choose another name, so the two can be told apart.');
  }
  return undefined;
}

/** The base URL rules (https, plain http only on loopback, …) in the words a validation message shows. */
function baseUrlProblem(value: string): string | undefined {
  try {
    parseBaseUrl(value);
    return undefined;
  } catch (error) {
    return error instanceof ApiError && error.reason ? reasonText(error.reason) : vscode.l10n.t('Enter a valid URL.');
  }
}

/** The account a command acts on: the row it was invoked on, the only one there is, or the user's pick. */
async function pickAccount(host: CommandHost, arg: unknown, title: string, withFirst: boolean): Promise<Account> {
  const { model } = host;
  if (!model.accountOf(arg) && model.namesAccount(arg)) throw new UserCancelled();
  const accounts = model.accounts.filter((a) => withFirst || a.id !== DEFAULT_ACCOUNT_ID);
  const named = model.accountOf(arg);
  const chosen = named ? accounts.find((a) => a === named) : accounts.length === 1 ? accounts[0] : undefined;
  if (chosen) return chosen;
  if (named || !accounts.length) {
    void tell(
      'info',
      vscode.l10n.t(
        'The first account is your hostingAccount.baseUrl setting. Use Remove API Key to sign it out on this machine.',
      ),
    );
    throw new UserCancelled();
  }
  const pick = await vscode.window.showQuickPick(
    accounts.map((account) => ({
      label: forLabel(account.name, 60),
      description: forLabel(account.baseUrl, 80),
      account,
    })),
    { title, placeHolder: vscode.l10n.t('Choose an account') },
  );
  if (!pick) throw new UserCancelled();
  return pick.account;
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
