import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { forLabel } from '../notify/inert';
import { coverageSentence } from '../notify/renewalWords';
import { shortReason } from '../notify/shortReason';
import { formatMoney } from '../util/money';
import { plain } from '../util/serverText';
import { fieldsOf, scalarText } from '../views/fields';

interface AccountPick extends vscode.QuickPickItem {
  readonly run?: () => unknown;
}

const STALE_MS = 10 * 60_000;

export async function showAccount(account: Account): Promise<void> {
  const { store } = account;
  const pick = vscode.window.createQuickPick<AccountPick>();
  pick.title = account.shownName() ? forLabel(account.name, 60) : vscode.l10n.t('Hosting Account');
  pick.placeholder = vscode.l10n.t('Select a field to copy it, or an action');
  pick.matchOnDescription = true;
  const render = (): void => {
    pick.items = items(account);
  };
  render();
  const subscriptions = [
    store.onDidChangeData(render),
    store.onDidChangeState(render),
    account.onDidDispose(() => pick.hide()),
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0];
      pick.hide();
      Promise.resolve(chosen?.run?.()).catch((error: unknown) =>
        account.log.error(`account summary: ${String(error)}`),
      );
    }),
    pick.onDidHide(() => {
      for (const s of subscriptions) s.dispose();
      pick.dispose();
    }),
  ];
  pick.show();
  const stale = (updatedAt: number | undefined): boolean => !updatedAt || Date.now() - updatedAt > STALE_MS;
  const kinds = (['account', 'balance'] as const).filter((kind) => stale(store[kind].updatedAt));
  if (kinds.length && store.hasApiKey) {
    pick.busy = true;
    await store.refresh(kinds, 'user');
    pick.busy = false;
  }
}

function items(account: Account): AccountPick[] {
  const { store } = account;
  const result: AccountPick[] = [];
  const copy = (text: string) => async (): Promise<void> => {
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(copy) Copied'), 2_000);
  };
  const details = store.account.value;
  if (details) {
    result.push({ label: vscode.l10n.t('Account'), kind: vscode.QuickPickItemKind.Separator });
    const who = details.name ?? details.email ?? details.id;
    if (who) {
      result.push({
        label: `$(account) ${forLabel(who)}`,
        description: details.name && details.email ? forLabel(details.email) : undefined,
        run: copy(plain(who)),
      });
    }
    const shown = new Set([details.name, details.email].map((text) => text && plain(text)));
    for (const field of fieldsOf(details.raw)) {
      if (field.children || field.omitted || field.value === undefined || shown.has(field.value)) continue;
      result.push({
        label: forLabel(humanise(field.key.slice(0, 200)), 60),
        description: forLabel(displayValue(field.value.slice(0, 400))),
        run: copy(field.value),
      });
    }
  } else if (store.account.error) {
    result.push({
      label: `$(warning) ${vscode.l10n.t('The account could not be read')}`,
      description: shortReason(store.account.error),
    });
  }
  result.push({ label: vscode.l10n.t('Balance'), kind: vscode.QuickPickItemKind.Separator });
  const balance = store.balance.value;
  if (balance) {
    const money = formatMoney(balance.amount, balance.currency, vscode.env.language);
    const when = store.balance.updatedAt
      ? vscode.l10n.t('updated at {0}', new Date(store.balance.updatedAt).toLocaleTimeString(vscode.env.language))
      : undefined;
    result.push({ label: `$(credit-card) ${money}`, description: when, run: copy(scalarText(balance.amount)) });
    const forecast = account.forecast();
    const coverage = coverageSentence(forecast, forLabel);
    if (coverage) {
      result.push({
        label: `$(${forecast.coverage.kind === 'short' ? 'warning' : 'calendar'}) ${coverage}`,
        description: vscode.l10n.t('Show Renewal Forecast'),
        run: () => vscode.commands.executeCommand('hostingAccount.showForecast', account),
      });
    }
  } else {
    result.push({
      label: `$(credit-card) ${vscode.l10n.t('Balance unavailable')}`,
      description: store.balance.error && shortReason(store.balance.error),
    });
  }
  const budget = store.rateLimitStatus();
  if (budget) {
    result.push({
      label: `$(dashboard) ${vscode.l10n.t('API requests left this minute: {0} of {1}', budget.remaining, budget.limit)}`,
    });
  }
  result.push({ label: vscode.l10n.t('Actions'), kind: vscode.QuickPickItemKind.Separator });
  result.push(...actions(account));
  return result;
}

// Each command is given the account, so none asks which.
function actions(account: Account): AccountPick[] {
  const { store } = account;
  const command = (id: string) => () => vscode.commands.executeCommand(id, account);
  const site = account.websiteUrl;
  const list: AccountPick[] = [
    { label: `$(refresh) ${vscode.l10n.t('Refresh')}`, run: command('hostingAccount.refresh') },
    { label: `$(file-text) ${vscode.l10n.t('Show Invoices')}`, run: command('hostingAccount.showInvoices') },
    { label: `$(calendar) ${vscode.l10n.t('Show Renewal Forecast')}`, run: command('hostingAccount.showForecast') },
    { label: `$(history) ${vscode.l10n.t('Show History')}`, run: command('hostingAccount.showHistory') },
  ];
  if (site) {
    list.push({
      label: `$(globe) ${vscode.l10n.t('Open Provider Website')}`,
      description: forLabel(site, 80),
      run: () => vscode.env.openExternal(vscode.Uri.parse(site, true)),
    });
  }
  list.push({
    label: `$(key) ${store.hasApiKey ? vscode.l10n.t('Change API Key…') : vscode.l10n.t('Set API Key…')}`,
    run: command('hostingAccount.setApiKey'),
  });
  if (store.hasApiKey) {
    list.push({ label: `$(trash) ${vscode.l10n.t('Remove API Key')}`, run: command('hostingAccount.removeApiKey') });
  }
  list.push({ label: `$(output) ${vscode.l10n.t('Show Log')}`, run: command('hostingAccount.showLog') });
  return list;
}

// `created_at` → "Created at", `id` → "ID".
function humanise(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim();
  if (/^id$/i.test(words)) return 'ID';
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

function displayValue(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleString(vscode.env.language, { dateStyle: 'medium', timeStyle: 'short' });
}
