import * as vscode from 'vscode';
import { type InvoiceNode, type InvoicesLayer } from '../views/invoices/InvoicesTreeProvider';
import { type BalanceStatusBar, type StatusBarAccounts } from '../views/statusBar/BalanceStatusBar';
import { escapeMarkdown, noIcons, truncate } from '../views/text';
import { type AccountPart, AccountRow, type AccountsTree, accountRowItem, accountStatus } from './AccountsTree';
import { accountName, hostOf } from './accountName';

/** An account's name in the status bar: short, and never read as an icon (`$(…)`) there. */
const MAX_NAME = 24;

/**
 * The Invoices view with several accounts: one row per account (the same row objects as the Orders view's, so a
 * command on either acts in that account), each holding that account's own invoices, loading and error state.
 */
export class InvoicesByAccount implements InvoicesLayer {
  private readonly owners = new WeakMap<object, AccountPart>();

  constructor(
    private readonly tree: AccountsTree,
    private readonly parts: () => readonly AccountPart[],
  ) {}

  getChildren(node?: InvoiceNode): InvoiceNode[] {
    if (!node) return this.parts().map((p) => p.row as unknown as InvoiceNode);
    const row = node as unknown;
    if (!(row instanceof AccountRow)) return [];
    const part = this.tree.partOf(row);
    if (!part) return [];
    const children = part.invoices.ownChildren();
    for (const child of children) this.owners.set(child, part);
    return children;
  }

  getTreeItem(node: InvoiceNode): vscode.TreeItem {
    const row = node as unknown;
    if (row instanceof AccountRow) {
      const part = this.tree.partOf(row);
      return part ? accountRowItem(part, 'invoices') : new vscode.TreeItem('');
    }
    const part = this.owners.get(node);
    if (!part) return new vscode.TreeItem('');
    const item = part.invoices.ownTreeItem(node);
    if (part.prefix && item.id) item.id = `${part.prefix}/${item.id}`;
    return item;
  }

  /** The account an invoice node belongs to (for the badges and the tests). */
  partOf(node: unknown): AccountPart | undefined {
    if (node instanceof AccountRow) return this.tree.partOf(node);
    return typeof node === 'object' && node !== null ? this.owners.get(node) : undefined;
  }
}

/**
 * The status bar with several accounts: the balance of the account of the selection in the Orders view (an order, a
 * field of one, or an account row), else of the first account; the tooltip lists every account.
 */
export class BalanceOfSelection implements StatusBarAccounts {
  /** The account last selected: kept by id, so a removed account falls back to the first, never to another. */
  private selected?: string;

  constructor(
    private readonly tree: AccountsTree,
    private readonly parts: () => readonly AccountPart[],
    private readonly statusBar: BalanceStatusBar,
  ) {}

  /** The selection of the Orders view changed: show the account it is in (an empty selection keeps the last one). */
  select(selection: readonly unknown[]): void {
    const part = selection.length ? this.tree.partOf(selection[0]) : undefined;
    if (!part || part.record.id === this.selected) return;
    this.selected = part.record.id;
    this.statusBar.update();
  }

  shown(): { store: AccountPart['store']; name: string } {
    const parts = this.parts();
    const part = parts.find((p) => p.record.id === this.selected) ?? parts[0];
    if (!part) throw new Error('no account');
    return { store: part.store, name: nameOf(part) };
  }

  lines(): string[] {
    return this.parts().map((part) => {
      const status = accountStatus(part.store, 'balance');
      const host = hostOf(part.record.baseUrl);
      const label = truncate(part.record.label || host, 60);
      const where = host && host !== label ? ` (${host})` : '';
      return `${status.problem ? '$(warning)' : '$(account)'} ${escapeMarkdown(`${label}${where}: ${status.text}`)}`;
    });
  }
}

/** An account as a short name: its label, or its provider host. */
export function nameOf(part: AccountPart): string {
  return noIcons(truncate(accountName(part.record), MAX_NAME));
}
