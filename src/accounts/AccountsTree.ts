import * as vscode from 'vscode';
import { type Store } from '../store/Store';
import { type OrdersLayer, type OrdersTreeNode, type OrdersTreeProvider } from '../views/orders/OrdersTreeProvider';
import { formatMoney } from '../views/statusBar/money';
import { type AccountRecord } from './accountList';
import { type AccountRowContext } from './accountRowContext';

/** One account's part of the tree: its record, its store and its own orders tree. */
export interface AccountPart {
  readonly record: AccountRecord;
  readonly store: Store;
  readonly orders: OrdersTreeProvider;
  /** Added accounts prefix their tree item ids, so two accounts with the same order id never collide. */
  readonly prefix: string;
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
    return typeof node === 'object' && node !== null ? this.owners.get(node) : undefined;
  }

  /** Whether this is a node the view was given (an account row, an order or a field). */
  isNode(node: unknown): boolean {
    return node instanceof AccountRow || (typeof node === 'object' && node !== null && this.owners.has(node));
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
    const item = new vscode.TreeItem(part?.record.label || vscode.l10n.t('Hosting Account'));
    item.id = `account/${row.accountId}`;
    item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
    if (!part) return item;
    const host = hostOf(part.record.baseUrl);
    const status = statusOf(part.store);
    item.description = [host, status.text].filter(Boolean).join(' · ');
    item.contextValue = `hostingAccount.account.${status.context}`;
    item.iconPath = new vscode.ThemeIcon(status.problem ? 'warning' : 'account');
    item.tooltip = [part.record.label, part.record.baseUrl, status.text].filter(Boolean).join('\n');
    if (status.context === 'noKey') {
      // Synced from another machine, or revoked: the row itself sets this account's key.
      item.command = { command: 'hostingAccount.setApiKey', title: vscode.l10n.t('Set API Key'), arguments: [row] };
    }
    item.accessibilityInformation = { label: [part.record.label, status.text].filter(Boolean).join(', ') };
    return item;
  }
}

interface RowStatus {
  readonly text: string;
  /** Decides the row's actions: `noKey` offers Set API Key. */
  readonly context: AccountRowContext;
  readonly problem: boolean;
}

function statusOf(store: Store): RowStatus {
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
      const stale = Boolean(store.ordersInfo.error);
      const money = balance ? formatMoney(balance.amount, balance.currency, vscode.env.language) : '';
      const text = stale ? [money, vscode.l10n.t('stale')].filter(Boolean).join(' · ') : money;
      return { text, context: 'ready', problem: stale };
    }
  }
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return '';
  }
}
