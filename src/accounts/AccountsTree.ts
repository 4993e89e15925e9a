import * as vscode from 'vscode';
import { type Store } from '../store/Store';
import { type InvoicesTreeProvider } from '../views/invoices/InvoicesTreeProvider';
import { type OrdersLayer, type OrdersTreeNode, type OrdersTreeProvider } from '../views/orders/OrdersTreeProvider';
import { orderNodeOf } from '../views/orders/orderNodeOf';
import { formatMoney } from '../views/statusBar/money';
import { hostOf } from './accountName';
import { type AccountRecord, DEFAULT_ACCOUNT_ID } from './accountList';
import { type AccountRowState } from './contextValues';

/** One account's part of the tree: its record, its store and its own orders tree. */
export interface AccountPart {
  readonly record: AccountRecord;
  readonly store: Store;
  readonly orders: OrdersTreeProvider;
  /** Added accounts prefix their tree item ids, so two accounts with the same order id never collide. */
  readonly prefix: string;
  /** Its invoices tree (the Invoices view's part of this account). */
  readonly invoices: InvoicesTreeProvider;
  /** Its row, the same node in the Orders and the Invoices view, so a command on either acts in this account. */
  readonly row: AccountRow;
}

/** A top-level row of the Orders view when there are several accounts. */
export class AccountRow {
  constructor(readonly accountId: string) {}
}

/**
 * The Orders view with several accounts: one row per account (label, provider host, balance or state), each holding
 * that account's own tree. Every node is routed to the tree that made it, so one account's loading, error or stale
 * state never touches another's, and no answer of one account can show under another.
 */
export class AccountsTree implements OrdersLayer {
  private readonly rows = new Map<string, AccountRow>();
  private readonly owners = new WeakMap<object, AccountPart>();

  constructor(private readonly parts: () => readonly AccountPart[]) {}

  rowOf(accountId: string): AccountRow {
    let row = this.rows.get(accountId);
    if (!row) this.rows.set(accountId, (row = new AccountRow(accountId)));
    return row;
  }

  /**
   * The account a node of the Orders view belongs to. Every node the view was given is remembered with its account,
   * also after that account is removed, so a late command on it is recognised (and refused), never moved elsewhere.
   */
  partOf(node: unknown): AccountPart | undefined {
    if (node instanceof AccountRow) return this.parts().find((p) => p.record.id === node.accountId);
    if (typeof node !== 'object' || node === null) return undefined;
    // An order node not shown yet (a notification's Start, a reveal) is asked of each tree, which knows its own.
    return this.owners.get(node) ?? this.parts().find((p) => orderNodeOf(p.orders, node) !== undefined);
  }

  /** Whether this is a node of the view (an account row, an order or a field), shown or not yet. */
  isNode(node: unknown): boolean {
    return (
      node instanceof AccountRow ||
      (typeof node === 'object' && node !== null && (this.owners.has(node) || this.partOf(node) !== undefined))
    );
  }

  getTreeItem(node: OrdersTreeNode): vscode.TreeItem {
    const row = node as unknown;
    if (row instanceof AccountRow) return this.rowItem(row);
    const part = this.partOf(node);
    if (!part) return new vscode.TreeItem('');
    const item = part.orders.ownTreeItem(node);
    if (part.prefix && item.id) item.id = `${part.prefix}/${item.id}`;
    return item;
  }

  async getChildren(node?: OrdersTreeNode): Promise<OrdersTreeNode[]> {
    const row = node as unknown;
    if (!node) return this.parts().map((p) => this.rowOf(p.record.id) as unknown as OrdersTreeNode);
    const part = this.partOf(row);
    if (!part) return [];
    const children = await part.orders.ownChildren(row instanceof AccountRow ? undefined : node);
    for (const child of children) this.owners.set(child, part);
    return children;
  }

  getParent(node: OrdersTreeNode): OrdersTreeNode | undefined {
    const row = node as unknown;
    if (row instanceof AccountRow) return undefined;
    const part = this.partOf(node);
    if (!part) return undefined;
    // The view only ever asks about its own nodes; account rows travel as opaque nodes of the one tree.
    return part.orders.ownParent(node) ?? (this.rowOf(part.record.id) as unknown as OrdersTreeNode);
  }

  private rowItem(row: AccountRow): vscode.TreeItem {
    const part = this.partOf(row);
    return part ? accountRowItem(part, 'orders') : new vscode.TreeItem(vscode.l10n.t('Hosting Account'));
  }
}

/**
 * The tree item of an account row, in the Orders or the Invoices view: its label, then its state before its balance
 * in the description (a narrow sidebar cuts the end of a row, and "stale" matters more than the amount). The provider
 * host is said once, in the tooltip with the base URL, not repeated in the row.
 */
export function accountRowItem(part: AccountPart, view: 'orders' | 'invoices'): vscode.TreeItem {
  const { record } = part;
  const item = new vscode.TreeItem(record.label || vscode.l10n.t('Hosting Account'));
  item.id = `account/${record.id}`;
  item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
  const status = accountStatus(part.store, view);
  item.description = status.text;
  // `.added` for the accounts after the first, which can be removed (the first is the settings: only its key goes).
  item.contextValue = `hostingAccount.account.${status.context}${record.id === DEFAULT_ACCOUNT_ID ? '' : '.added'}`;
  item.iconPath = new vscode.ThemeIcon(status.problem ? 'warning' : 'account');
  // The first account's label defaults to its host: then the base URL alone says it.
  const label = record.label && record.label !== hostOf(record.baseUrl) ? record.label : '';
  item.tooltip = [label, record.baseUrl, status.text].filter(Boolean).join('\n');
  if (status.context === 'noKey') {
    // Synced from another machine, or revoked: the row itself sets this account's key.
    item.command = {
      command: 'hostingAccount.setApiKey',
      title: vscode.l10n.t('Set API Key'),
      arguments: [part.row],
    };
  }
  item.accessibilityInformation = { label: [record.label, status.text].filter(Boolean).join(', ') };
  return item;
}

export interface AccountStatus {
  /** The state first, then the balance: "stale · $7.00". Empty when there is nothing to say. */
  readonly text: string;
  /** Decides the row's actions: `noKey` offers Set API Key. */
  readonly context: AccountRowState;
  readonly problem: boolean;
}

/** What an account is doing, for its row (stale by the data that row shows) and the status bar's tooltip. */
export function accountStatus(store: Store, view: 'orders' | 'invoices' | 'balance'): AccountStatus {
  switch (store.state) {
    case 'noBaseUrl':
    case 'badBaseUrl':
      return { text: vscode.l10n.t('no valid base URL'), context: 'problem', problem: true };
    case 'noKey':
      return { text: vscode.l10n.t('no API key on this machine'), context: 'noKey', problem: true };
    case 'invalidKey':
      return { text: vscode.l10n.t('key rejected'), context: 'noKey', problem: true };
    case 'unreachable':
      return { text: vscode.l10n.t('unreachable'), context: 'problem', problem: true };
    case 'loading':
      return { text: vscode.l10n.t('loading…'), context: 'loading', problem: false };
    case 'ready': {
      const balance = store.balance.value;
      const failed =
        view === 'orders' ? store.ordersInfo.error : view === 'invoices' ? store.invoices.error : store.balance.error;
      const stale = Boolean(failed);
      const money = balance ? formatMoney(balance.amount, balance.currency, vscode.env.language) : '';
      const text = [stale ? vscode.l10n.t('stale') : '', money].filter(Boolean).join(' · ');
      return { text, context: 'ready', problem: stale };
    }
  }
}
