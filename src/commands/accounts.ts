import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { DEFAULT_ACCOUNT_ID, MAX_LABEL_LENGTH, newAccountId } from '../accounts/accountList';
import { parseBaseUrl } from '../api/baseUrl';
import { ApiError } from '../api/errors';
import { forLabel } from '../notify/inert';
import { reasonText } from '../notify/reasonText';
import { confirm, tell } from '../notify/show';
import { type CommandHost } from './CommandHost';
import { setApiKey } from './apiKey';
import { UserCancelled } from './UserCancelled';

/** The key is checked by the same box as Set API Key, in the new account's own store; cancelling leaves nothing. */
export async function addAccount(host: CommandHost): Promise<void> {
  const { model } = host;
  const href = await askBaseUrl(vscode.l10n.t('Hosting: Add Account'));
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
    await setApiKey(account);
    if (!account.store.hasApiKey) await account.keyChanged();
    if (!account.store.hasApiKey) throw new UserCancelled();
  } catch (error) {
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

/** The key goes to whatever address is configured: a new origin gets it only once the user confirmed that. */
export async function editAccountAddress(host: CommandHost, arg: unknown): Promise<void> {
  const title = vscode.l10n.t('Hosting: Edit Account Address');
  const where = await pickAccount(host, arg, title, true);
  const account = where.record;
  const baseUrl = await askBaseUrl(title, account.baseUrl);
  // A window being set up (Sign In from the Accounts menu) is asked the API's address only; the website can wait.
  const websiteUrl = account.baseUrl ? await askWebsite(title, account.websiteUrl) : account.websiteUrl;
  const moved = baseUrl !== account.baseUrl;
  if (!moved && websiteUrl === account.websiteUrl) return;
  if (moved && where.store.hasApiKey) await confirmMove(where, baseUrl);
  if (account.id === DEFAULT_ACCOUNT_ID) {
    // User scope: the settings are only read from there.
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

async function askBaseUrl(title: string, value?: string): Promise<string> {
  const prompt = vscode.l10n.t("The address of the provider's API, for example https://panel.example.com");
  return parseBaseUrl(await ask({ title, prompt, value, validate: baseUrlProblem })).href;
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

// The next step must see the new address.
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

function baseUrlProblem(value: string): string | undefined {
  try {
    parseBaseUrl(value);
    return undefined;
  } catch (error) {
    return error instanceof ApiError && error.reason ? reasonText(error.reason) : vscode.l10n.t('Enter a valid URL.');
  }
}

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

async function ask(options: {
  title: string;
  prompt: string;
  value?: string;
  validate: (value: string) => string | undefined;
}): Promise<string> {
  const { title, prompt, value, validate } = options;
  const answer = await vscode.window.showInputBox({
    title,
    prompt,
    value,
    ignoreFocusOut: true,
    validateInput: (text) => validate(text.slice(0, 2048)),
  });
  if (answer === undefined) throw new UserCancelled();
  return answer.trim().slice(0, Math.max(2048, MAX_LABEL_LENGTH));
}
