import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { type OrderOutlook } from '../../billing/types';
import { forLabel } from '../../notify/inert';
import { renewalCoverage, renewalSummary } from '../../notify/renewalWords';
import { type Order } from '../../api/models';

export class RenewalNode {
  private constructor(
    readonly account: Account,
    readonly orderId: string,
    private readonly summary: string,
    private readonly coverage: { readonly text: string; readonly warn: boolean } | undefined,
  ) {}

  static of(
    account: Account,
    order: Order,
    outlook: OrderOutlook | undefined,
    today: string,
    warn: boolean,
  ): RenewalNode | undefined {
    const summary = renewalSummary(order, outlook, today, forLabel);
    if (summary === undefined) return undefined;
    const coverage = renewalCoverage(outlook, today);
    return new RenewalNode(
      account,
      order.id,
      summary,
      coverage && { text: coverage.text, warn: warn && coverage.warn },
    );
  }

  toTreeItem(idPrefix: string): vscode.TreeItem {
    const item = new vscode.TreeItem(this.summary, vscode.TreeItemCollapsibleState.None);
    item.id = `${idPrefix}order/${encodeURIComponent(this.orderId)}/renewal`;
    item.contextValue = 'orderRenewal';
    const warn = this.coverage?.warn ?? false;
    item.iconPath = new vscode.ThemeIcon(
      warn ? 'warning' : 'calendar',
      warn ? new vscode.ThemeColor('problemsWarningIcon.foreground') : undefined,
    );
    item.description = this.coverage?.text;
    item.tooltip = [this.summary, this.coverage?.text].filter(Boolean).join('\n');
    item.command = {
      command: 'hostingAccount.showForecast',
      title: vscode.l10n.t('Show Renewal Forecast'),
      arguments: [this.account],
    };
    return item;
  }
}
