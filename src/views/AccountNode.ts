import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { DEFAULT_ACCOUNT_ID } from '../accounts/accountList';
import { forLabel } from '../notify/inert';
import { type Store } from '../store/Store';
import { hostOf } from '../util/hosts';
import { formatMoney } from '../util/money';
import { type AccountRowState } from './accountContextValues';

/** A top-level row of both views when there are several accounts: the same node in both. */
export class AccountNode {
  private constructor(readonly account: Account) {}

  private static readonly nodes = new WeakMap<Account, AccountNode>();

  static of(account: Account): AccountNode {
    let node = AccountNode.nodes.get(account);
    if (!node) AccountNode.nodes.set(account, (node = new AccountNode(account)));
    return node;
  }
}

export function accountRowItem(node: AccountNode, view: 'orders' | 'invoices'): vscode.TreeItem {
  const { account } = node;
  const { record } = account;
  const item = new vscode.TreeItem(forLabel(account.name, 60), vscode.TreeItemCollapsibleState.Expanded);
  item.id = `account/${record.id}`;
  const status = accountStatus(account.store, view);
  item.description = status.text;
  item.contextValue = `hostingAccount.account.${status.context}${record.id === DEFAULT_ACCOUNT_ID ? '' : '.added'}`;
  item.iconPath = new vscode.ThemeIcon(status.problem ? 'warning' : 'account');
  // The first account's label defaults to its host: then the base URL alone says it.
  const label = record.label && record.label !== hostOf(record.baseUrl) ? record.label : '';
  item.tooltip = [label, record.baseUrl, status.text].filter(Boolean).join('\n');
  if (status.context === 'noKey') {
    // Synced from another machine, or revoked: the row itself sets this account's key.
    item.command = { command: 'hostingAccount.setApiKey', title: vscode.l10n.t('Set API Key'), arguments: [node] };
  }
  item.accessibilityInformation = { label: [account.name, status.text].filter(Boolean).join(', ') };
  return item;
}

interface AccountStatus {
  readonly text: string;
  readonly context: AccountRowState;
  readonly problem: boolean;
}

// The state before the balance ("stale · $7.00"): a narrow sidebar cuts the end of a row.
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
