import * as vscode from 'vscode';
import { type Invoice } from '../../api/models';
import { type Store } from '../../store/Store';
import { Disposable } from '../../util/lifecycle';
import { fieldsMarkdown, fieldsOf } from '../fields';
import { escapeMarkdown } from '../text';
import { formatMoney } from '../statusBar/money';
import { invoiceLook, newestFirst } from './invoicePresentation';

export class InvoiceNode {
  constructor(readonly invoice: Invoice) {}
}

/** Several accounts (src/accounts/): the view's top level is then one row per account, each holding its invoices. */
export interface InvoicesLayer {
  getTreeItem(node: InvoiceNode): vscode.TreeItem;
  getChildren(node?: InvoiceNode): InvoiceNode[];
}

function statusLabel(invoice: Invoice): string {
  switch (invoice.status) {
    case 'paid':
      return vscode.l10n.t('Paid');
    case 'unpaid':
      return vscode.l10n.t('Unpaid');
    case 'overdue':
      return vscode.l10n.t('Overdue');
    case 'cancelled':
      return vscode.l10n.t('Cancelled');
    case 'unknown':
      return invoice.statusText ?? vscode.l10n.t('Unknown status');
  }
}

/** The Invoices view: status, amount and date, newest first; unpaid and overdue ones stand out. */
export class InvoicesTreeProvider extends Disposable implements vscode.TreeDataProvider<InvoiceNode> {
  private readonly emitter = this.register(new vscode.EventEmitter<undefined>());
  readonly onDidChangeTreeData = this.emitter.event;

  private shown?: readonly Invoice[];
  /** Unset with one account, so the view is exactly the one-account view. */
  layer?: InvoicesLayer;

  constructor(private readonly store: Store) {
    super();
    // Redraw when the invoices themselves change, not on every loading flag.
    this.register(
      store.onDidChangeData((kind) => {
        if (kind !== 'invoices' || store.invoices.value === this.shown) return;
        this.shown = store.invoices.value;
        this.emitter.fire(undefined);
      }),
    );
    this.register(store.onDidChangeState(() => this.emitter.fire(undefined)));
  }

  /** Tells the view that it changed (the accounts layer, for the other accounts' invoices). */
  changed(): void {
    this.emitter.fire(undefined);
  }

  getChildren(node?: InvoiceNode): InvoiceNode[] {
    return this.layer ? this.layer.getChildren(node) : this.ownChildren(node);
  }

  ownChildren(node?: InvoiceNode): InvoiceNode[] {
    if (node || this.store.state !== 'ready') return [];
    // Tree ids must be unique: a server listing an invoice twice shows it once.
    const seen = new Set<string>();
    return newestFirst(
      (this.store.invoices.value ?? []).filter((invoice) => !seen.has(invoice.id) && seen.add(invoice.id)),
    ).map((invoice) => new InvoiceNode(invoice));
  }

  getTreeItem(node: InvoiceNode): vscode.TreeItem {
    return this.layer ? this.layer.getTreeItem(node) : this.ownTreeItem(node);
  }

  ownTreeItem(node: InvoiceNode): vscode.TreeItem {
    const { invoice } = node;
    const look = invoiceLook(invoice);
    const label = invoice.number ?? `#${invoice.id}`;
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = `invoice/${encodeURIComponent(invoice.id)}`;
    item.contextValue = look.contextValue;
    item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
    const amount =
      invoice.amount === undefined ? undefined : formatMoney(invoice.amount, invoice.currency, vscode.env.language);
    const status = statusLabel(invoice);
    // The status first: it is what the user scans for, and a narrow sidebar cuts the end of the row.
    item.description = [look.attention ? status.toUpperCase() : status, amount, invoice.date]
      .filter(Boolean)
      .join(' · ');
    // Enter (or a click) opens the invoice, as the context menu's Open does.
    if (invoice.url) {
      item.command = {
        command: 'hostingAccount.invoice.open',
        title: vscode.l10n.t('Open Invoice in Browser'),
        arguments: [node],
      };
    }
    item.accessibilityInformation = { label: [label, amount, invoice.date, status].filter(Boolean).join(', ') };
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, { invoice }: InvoiceNode): vscode.TreeItem {
    // An account row (several accounts) has its tooltip already.
    if (!invoice) return item;
    const title = `**${escapeMarkdown(invoice.number ?? invoice.id)}** · ${escapeMarkdown(statusLabel(invoice))}`;
    const due = invoice.dueDate ? `\n\n${escapeMarkdown(vscode.l10n.t('Due {0}', invoice.dueDate))}` : '';
    item.tooltip = new vscode.MarkdownString(`${title}${due}\n\n${fieldsMarkdown(fieldsOf(invoice.raw))}`);
    return item;
  }
}
