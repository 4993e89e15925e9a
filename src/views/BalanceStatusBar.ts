import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { forLabel, forMarkdown } from '../notify/inert';
import { balanceRunsShort, coverageSentence, forecastCaveats, warningDays } from '../notify/renewalWords';
import { shortReason } from '../notify/shortReason';
import { hostOf } from '../util/hosts';
import { Disposable } from '../util/lifecycle';
import { formatMoney, isLow } from '../util/money';
import { accountStatus } from './AccountNode';

const MAX_NAME = 24;

/** With several accounts: the account of the Orders view's selection, else the first; the tooltip lists them all. */
export class BalanceStatusBar extends Disposable {
  readonly item: vscode.StatusBarItem;
  private tooltipTimer?: ReturnType<typeof setTimeout>;
  // By id, so a removed account falls back to the first, never to another.
  private selected?: string;

  constructor(
    private readonly model: AccountModel,
    private readonly threshold: () => number,
  ) {
    super();
    this.item = this.register(
      vscode.window.createStatusBarItem('hostingAccount.balance', vscode.StatusBarAlignment.Right, 100),
    );
    this.item.name = vscode.l10n.t('Hosting Account Balance');
    this.register(model.onDidChange(() => this.update()));
    this.register(model.onDidChangeState(() => this.update()));
    // The tooltip's forecast is made from the orders and invoices too.
    this.register(model.onDidChangeData(() => this.update()));
    this.register(model.onDidRequest(() => this.requestBudgetChanged()));
    this.register({ dispose: () => clearTimeout(this.tooltipTimer) });
    this.update();
  }

  get shown(): Account {
    return (this.selected !== undefined && this.model.get(this.selected)) || this.model.first;
  }

  select(selection: readonly unknown[]): void {
    const account = selection.length ? this.model.accountOf(selection[0]) : undefined;
    if (!account || account.id === this.selected) return;
    this.selected = account.id;
    this.update();
  }

  // The request budget changes with every request: the tooltip follows at most every second.
  private requestBudgetChanged(): void {
    if (this.tooltipTimer) return;
    this.tooltipTimer = setTimeout(() => {
      this.tooltipTimer = undefined;
      if (this.item.text) this.item.tooltip = this.tooltip(this.shown);
    }, 1_000);
  }

  update(): void {
    // Read once with its name: a balance is never shown under another account's name.
    const account = this.shown;
    const name = this.model.several ? forLabel(account.name, MAX_NAME) : '';
    const { store } = account;
    const { state } = store;
    if (state === 'noBaseUrl' || state === 'badBaseUrl' || state === 'noKey') {
      this.item.hide();
      return;
    }
    const balance = store.balance;
    const warning = new vscode.ThemeColor('statusBarItem.warningBackground');
    if (state === 'invalidKey') {
      this.item.text = `$(warning) ${vscode.l10n.t('Hosting: key rejected')}`;
      this.item.backgroundColor = warning;
    } else if (balance.value) {
      const { amount, currency } = balance.value;
      const low = isLow(amount, this.threshold());
      const stale = Boolean(balance.error);
      const short = balanceRunsShort(account.forecast(), warningDays(account.settings));
      const warn = stale || low || short;
      this.item.text = `$(${warn ? 'warning' : 'credit-card'}) ${formatMoney(amount, currency, vscode.env.language)}`;
      this.item.backgroundColor = warn ? warning : undefined;
    } else if (balance.error || state === 'unreachable') {
      this.item.text = `$(warning) ${vscode.l10n.t('Balance unavailable')}`;
      this.item.backgroundColor = warning;
    } else {
      this.item.text = `$(credit-card) …`;
      this.item.backgroundColor = undefined;
    }
    if (name) this.item.text += ` · ${name}`;
    this.item.command = {
      command: 'hostingAccount.showAccount',
      title: vscode.l10n.t('Show Account'),
      arguments: [account],
    };
    this.item.accessibilityInformation = { label: [accessibleLabel(account), name].filter(Boolean).join(', ') };
    this.item.tooltip = this.tooltip(account);
    this.item.show();
  }

  private tooltip(account: Account): vscode.MarkdownString {
    const { balance, account: who, state } = account.store;
    const title = this.model.several ? forMarkdown(account.name) : vscode.l10n.t('Hosting Account');
    const lines: string[] = [`**${title}**`];
    const person = who.value && [who.value.name, who.value.email].filter((part) => part !== undefined);
    if (person?.length) lines.push(person.map((part) => forMarkdown(part, 80)).join(' · '));
    if (balance.value) {
      const money = formatMoney(balance.value.amount, balance.value.currency, vscode.env.language);
      lines.push(vscode.l10n.t('Balance: {0}', forMarkdown(money)));
      const threshold = this.threshold();
      if (isLow(balance.value.amount, threshold)) {
        const limit = formatMoney(threshold, balance.value.currency, vscode.env.language);
        lines.push(`$(warning) ${vscode.l10n.t('Below your low-balance threshold of {0}', forMarkdown(limit))}`);
      }
      const forecast = account.forecast();
      const coverage = coverageSentence(forecast, forMarkdown);
      if (coverage) {
        const short = forecast.coverage.kind === 'short';
        lines.push(`$(${short ? 'warning' : 'calendar'}) ${coverage}`);
        for (const caveat of forecastCaveats(forecast)) lines.push(caveat);
      }
    }
    if (balance.updatedAt) {
      const time = new Date(balance.updatedAt).toLocaleTimeString(vscode.env.language);
      lines.push(vscode.l10n.t('Updated at {0}', time));
    }
    if (state === 'invalidKey') {
      lines.push(`$(warning) ${vscode.l10n.t('The hosting API rejected the API key.')}`);
    } else if (balance.error) {
      lines.push(
        `$(warning) ${vscode.l10n.t('The last refresh failed: {0}', forMarkdown(shortReason(balance.error), 300))}`,
      );
    }
    const budget = account.store.rateLimitStatus();
    if (budget) lines.push(vscode.l10n.t('API requests left this minute: {0} of {1}', budget.remaining, budget.limit));
    if (this.model.several) lines.push('', ...this.model.accounts.map((each) => accountLine(each)));
    lines.push('', vscode.l10n.t('Click for the account summary.'));
    const markdown = new vscode.MarkdownString(lines.join('  \n'), true);
    markdown.isTrusted = false;
    markdown.supportHtml = false;
    return markdown;
  }
}

function accessibleLabel(account: Account): string {
  const value = account.store.balance.value;
  if (!value) return vscode.l10n.t('Hosting account balance unavailable');
  const money = formatMoney(value.amount, value.currency, vscode.env.language);
  return balanceRunsShort(account.forecast(), warningDays(account.settings))
    ? vscode.l10n.t('Hosting account balance {0}, does not cover the coming renewals', money)
    : vscode.l10n.t('Hosting account balance {0}', money);
}

function accountLine(account: Account): string {
  const status = accountStatus(account.store, 'balance');
  const host = hostOf(account.baseUrl);
  const where = host && host !== account.name ? ` (${host})` : '';
  const line = vscode.l10n.t('{0}: {1}', forMarkdown(`${account.name}${where}`), status.text);
  return `${status.problem ? '$(warning)' : '$(account)'} ${line}`;
}
