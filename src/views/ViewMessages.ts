import * as vscode from 'vscode';
import { type ApiError } from '../api/errors';
import { type Store } from '../store/Store';
import { Disposable } from '../util/lifecycle';

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
    } else if (store.state === 'ready' && orders.error && orders.updatedAt) {
      this.orders.message = vscode.l10n.t('Showing data from {0}. The last refresh failed: {1}.',
        time(orders.updatedAt), shortReason(orders.error));
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

/** A few words for the line above the tree; the notification and the log have the whole story. */
export function shortReason(error: ApiError): string {
  switch (error.kind) {
    case 'server': return vscode.l10n.t('HTTP {0}', error.status ?? '5xx');
    case 'network': return error.transportCode === 'ECONNREFUSED'
      ? vscode.l10n.t('connection refused')
      : error.tls ? vscode.l10n.t('TLS certificate rejected') : vscode.l10n.t('network error ({0})', error.transportCode ?? '?');
    case 'timeout': return vscode.l10n.t('no answer in time');
    case 'rateLimited': return vscode.l10n.t('rate limited');
    case 'badResponse': return vscode.l10n.t('the answer could not be read');
    case 'unauthorized': return vscode.l10n.t('the API key was rejected');
    case 'notFound': return vscode.l10n.t('not found (HTTP {0})', error.status ?? 404);
    case 'invalidRequest': return vscode.l10n.t('refused (HTTP {0})', error.status ?? 400);
    case 'badConfig': return error.message;
    case 'cancelled': return vscode.l10n.t('cancelled');
  }
}
