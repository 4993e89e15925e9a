import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { type AccountModel } from '../../accounts/AccountModel';
import { type Invoice } from '../../api/models';
import { forLabel, forMarkdown } from '../../notify/inert';
import { Disposable } from '../../util/lifecycle';
import { formatMoney } from '../../util/money';
import { AccountNode, accountRowItem } from '../AccountNode';
import { fieldsMarkdown, fieldsOf } from '../fields';
import { moreFields } from '../orders/OrderNode';
import { idPrefix } from '../orders/OrdersTree';
import { invoiceLook, newestFirst } from './invoicePresentation';

export class InvoiceNode {
  constructor(
    readonly account: Account,
    readonly invoice: Invoice,
  ) {}
}

export type InvoicesTreeNode = AccountNode | InvoiceNode;

function statusLabel({ status, statusText }: Invoice): string {
  if (status === 'unknown') return statusText ? forLabel(statusText, 40) : vscode.l10n.t('Unknown status');
  const words = {
    paid: vscode.l10n.t('Paid'),
    unpaid: vscode.l10n.t('Unpaid'),
    overdue: vscode.l10n.t('Overdue'),
    cancelled: vscode.l10n.t('Cancelled'),
  };
  return words[status];
}

export class InvoicesTree extends Disposable implements vscode.TreeDataProvider<InvoicesTreeNode> {
  private readonly emitter = this.register(new vscode.EventEmitter<InvoicesTreeNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly shown = new WeakMap<Account, readonly Invoice[] | undefined>();

  constructor(private readonly model: AccountModel) {
    super();
    this.register(
      model.onDidChangeData(({ account, value: kind }) => {
        // The invoices themselves, not every loading flag; an account row says its balance.
        if (kind === 'balance' && model.several) this.changed(account);
        if (kind !== 'invoices' || account.store.invoices.value === this.shown.get(account)) return;
        this.shown.set(account, account.store.invoices.value);
        this.changed(account);
      }),
    );
    this.register(model.onDidChangeState((account) => this.changed(account)));
    this.register(model.onDidChange(() => this.emitter.fire(undefined)));
  }

  getChildren(node?: InvoicesTreeNode): InvoicesTreeNode[] {
    if (!node) {
      if (this.model.several) return this.model.accounts.map((account) => AccountNode.of(account));
      return this.invoicesOf(this.model.first);
    }
    return node instanceof AccountNode && this.model.accountOf(node) ? this.invoicesOf(node.account) : [];
  }

  getTreeItem(node: InvoicesTreeNode): vscode.TreeItem {
    if (node instanceof AccountNode) return accountRowItem(node, 'invoices');
    const { invoice } = node;
    const look = invoiceLook(invoice);
    const label = forLabel(invoice.number ?? `#${invoice.id}`, 60);
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = `${idPrefix(node.account, this.model)}invoice/${encodeURIComponent(invoice.id)}`;
    item.contextValue = look.contextValue;
    item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
    const amount =
      invoice.amount === undefined ? undefined : formatMoney(invoice.amount, invoice.currency, vscode.env.language);
    const status = statusLabel(invoice);
    const date = invoice.date === undefined ? undefined : forLabel(invoice.date, 40);
    // The status first: a narrow sidebar cuts the end of the row.
    item.description = [look.attention ? status.toLocaleUpperCase(vscode.env.language) : status, amount, date]
      .filter(Boolean)
      .join(' · ');
    if (invoice.url) {
      item.command = {
        command: 'hostingAccount.invoice.open',
        title: vscode.l10n.t('Open Invoice in Browser'),
        arguments: [node],
      };
    }
    item.accessibilityInformation = { label: [label, amount, date, status].filter(Boolean).join(', ') };
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: InvoicesTreeNode): vscode.TreeItem {
    if (node instanceof AccountNode) return item;
    const { invoice } = node;
    const title = `**${forMarkdown(invoice.number ?? invoice.id)}** · ${forMarkdown(statusLabel(invoice))}`;
    const due = invoice.dueDate ? `\n\n${forMarkdown(vscode.l10n.t('Due {0}', forLabel(invoice.dueDate, 40)))}` : '';
    const markdown = new vscode.MarkdownString(
      `${title}${due}\n\n${fieldsMarkdown(fieldsOf(invoice.raw), moreFields)}`,
    );
    markdown.isTrusted = false;
    markdown.supportHtml = false;
    item.tooltip = markdown;
    return item;
  }

  private changed(account: Account): void {
    this.emitter.fire(this.model.several ? AccountNode.of(account) : undefined);
  }

  private invoicesOf(account: Account): InvoiceNode[] {
    const { store } = account;
    if (store.state !== 'ready') return [];
    // Tree ids must be unique: a server listing an invoice twice shows it once.
    const seen = new Set<string>();
    const invoices = (store.invoices.value ?? []).filter((invoice) => !seen.has(invoice.id) && seen.add(invoice.id));
    return newestFirst(invoices).map((invoice) => new InvoiceNode(account, invoice));
  }
}
