import * as vscode from 'vscode';
import { type Store } from '../store/Store';
import { Disposable } from '../util/lifecycle';
import { shortReason } from './shortReason';

/**
 * The line above the orders: says when the data shown is stale and why, so a failed refresh never blanks the tree
 * and never passes unnoticed either.
 */
export class ViewMessages extends Disposable {
  constructor(
    private readonly store: Store,
    private readonly orders: vscode.TreeView<unknown>,
    private readonly invoices: vscode.TreeView<unknown>,
  ) {
    super();
    this.register(store.onDidChangeData(() => this.update()));
    this.register(store.onDidChangeState(() => this.update()));
    this.update();
  }

  private update(): void {
    const { store } = this;
    const time = (at: number | undefined): string =>
      (at ? new Date(at).toLocaleTimeString(vscode.env.language, { hour: 'numeric', minute: '2-digit' }) : '');
    const orders = store.ordersInfo;
    if (store.state === 'unreachable') {
      const error = orders.error ?? store.balance.error;
      this.orders.message = error ? vscode.l10n.t('Last attempt failed: {0}', shortReason(error)) : undefined;
    } else if (store.state === 'ready' && orders.error) {
      this.orders.message = orders.updatedAt
        ? vscode.l10n.t('Showing data from {0}. The last refresh failed: {1}.', time(orders.updatedAt), shortReason(orders.error))
        : vscode.l10n.t('The orders could not be loaded: {0}.', shortReason(orders.error));
    } else {
      this.orders.message = undefined;
    }
    const invoices = store.invoices;
    this.invoices.message = store.state === 'ready' && invoices.error
      ? invoices.updatedAt
        ? vscode.l10n.t('Showing data from {0}. The last refresh failed: {1}.', time(invoices.updatedAt), shortReason(invoices.error))
        : vscode.l10n.t('Invoices could not be loaded: {0}.', shortReason(invoices.error))
      : undefined;
  }
}
