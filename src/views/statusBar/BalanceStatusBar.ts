import * as vscode from 'vscode';
import { type Store } from '../../store/Store';
import { Disposable } from '../../util/lifecycle';
import { escapeMarkdown } from '../text';
import { formatMoney, isLow } from './money';

/** Several accounts (src/accounts/): which one is shown, its name, and a tooltip line per account. */
export interface StatusBarAccounts {
  shown(): { readonly store: Store; readonly name: string };
  lines(): string[];
}

/** The balance in the status bar: one short item, a warning background only for a low balance or a problem. */
export class BalanceStatusBar extends Disposable {
  readonly item: vscode.StatusBarItem;
  private tooltipTimer?: ReturnType<typeof setTimeout>;
  /** Unset with one account, so the item is exactly the one-account item. */
  accounts?: StatusBarAccounts;
  private store: Store;
  private name = '';

  constructor(
    private readonly first: Store,
    private readonly threshold: () => number,
  ) {
    super();
    this.store = first;
    this.item = this.register(
      vscode.window.createStatusBarItem('hostingAccount.balance', vscode.StatusBarAlignment.Right, 100),
    );
    this.item.name = vscode.l10n.t('Hosting Account Balance');
    this.item.command = 'hostingAccount.showAccount';
    this.register(first.onDidChangeState(() => this.update()));
    this.register(first.onDidChangeData((kind) => (kind === 'balance' || kind === 'account') && this.update()));
    this.register(first.onDidRequest(() => this.requestBudgetChanged()));
    this.register({ dispose: () => clearTimeout(this.tooltipTimer) });
    this.update();
  }

  /** The request budget changes with every request; the tooltip follows, at most every second. */
  requestBudgetChanged(): void {
    if (this.tooltipTimer) return;
    this.tooltipTimer = setTimeout(() => {
      this.tooltipTimer = undefined;
      if (this.item.text) this.item.tooltip = this.tooltip();
    }, 1_000);
  }

  update(): void {
    // The account and its name are read together, once: a balance is never shown under another account's name.
    ({ store: this.store, name: this.name } = this.accounts?.shown() ?? { store: this.first, name: '' });
    const { state } = this.store;
    if (state === 'noBaseUrl' || state === 'badBaseUrl' || state === 'noKey') {
      this.item.hide();
      return;
    }
    const balance = this.store.balance;
    const warning = new vscode.ThemeColor('statusBarItem.warningBackground');
    if (state === 'invalidKey') {
      this.item.text = `$(warning) ${vscode.l10n.t('Hosting: key rejected')}`;
      this.item.backgroundColor = warning;
    } else if (balance.value) {
      const { amount, currency } = balance.value;
      const low = isLow(amount, this.threshold());
      const stale = Boolean(balance.error);
      this.item.text = `$(${stale || low ? 'warning' : 'credit-card'}) ${formatMoney(amount, currency, vscode.env.language)}`;
      this.item.backgroundColor = stale || low ? warning : undefined;
    } else if (balance.error || state === 'unreachable') {
      this.item.text = `$(warning) ${vscode.l10n.t('Balance unavailable')}`;
      this.item.backgroundColor = warning;
    } else {
      this.item.text = `$(credit-card) …`;
      this.item.backgroundColor = undefined;
    }
    if (this.name) this.item.text += ` · ${this.name}`;
    this.item.accessibilityInformation = { label: [this.accessibleLabel(), this.name].filter(Boolean).join(', ') };
    this.item.tooltip = this.tooltip();
    this.item.show();
  }

  private accessibleLabel(): string {
    const value = this.store.balance.value;
    return value
      ? vscode.l10n.t('Hosting account balance {0}', formatMoney(value.amount, value.currency, vscode.env.language))
      : vscode.l10n.t('Hosting account balance unavailable');
  }

  private tooltip(): vscode.MarkdownString {
    const { balance, account, state } = this.store;
    const lines: string[] = [`**${escapeMarkdown(this.name) || vscode.l10n.t('Hosting Account')}**`];
    const who = account.value && [account.value.name, account.value.email].filter(Boolean).join(' · ');
    if (who) lines.push(escapeMarkdown(who));
    if (balance.value) {
      const money = formatMoney(balance.value.amount, balance.value.currency, vscode.env.language);
      lines.push(vscode.l10n.t('Balance: {0}', money));
      if (isLow(balance.value.amount, this.threshold())) {
        lines.push(
          `$(warning) ${vscode.l10n.t('Below your low-balance threshold of {0}', formatMoney(this.threshold(), balance.value.currency, vscode.env.language))}`,
        );
      }
    }
    if (balance.updatedAt) {
      lines.push(vscode.l10n.t('Updated at {0}', new Date(balance.updatedAt).toLocaleTimeString(vscode.env.language)));
    }
    if (state === 'invalidKey') lines.push(`$(warning) ${vscode.l10n.t('The hosting API rejected the API key.')}`);
    else if (balance.error) {
      lines.push(`$(warning) ${escapeMarkdown(vscode.l10n.t('The last refresh failed: {0}', balance.error.message))}`);
    }
    const budget = this.store.rateLimitStatus();
    if (budget) lines.push(vscode.l10n.t('API requests left this minute: {0} of {1}', budget.remaining, budget.limit));
    if (this.accounts) lines.push('', ...this.accounts.lines());
    lines.push('', vscode.l10n.t('Click for the account summary.'));
    const markdown = new vscode.MarkdownString(lines.join('  \n'), true);
    markdown.isTrusted = false;
    return markdown;
  }
}
