import * as vscode from 'vscode';
import { type ApiError } from '../api/errors';
import { type Store } from '../store/Store';
import { type ListCoverage } from '../store/types';
import { Disposable } from '../util/lifecycle';
import { loadNotify } from '../notify/lazy';

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
    // The wording of failures loads with the first failure to tell, not at activation.
    const shortReason = (error: ApiError): string => loadNotify().shortReason(error);
    const time = (at: number | undefined): string =>
      at ? new Date(at).toLocaleTimeString(vscode.env.language, { hour: 'numeric', minute: '2-digit' }) : '';
    const orders = store.ordersInfo;
    if (store.state === 'unreachable') {
      const error = orders.error ?? store.balance.error;
      this.orders.message = error ? vscode.l10n.t('Last attempt failed: {0}', shortReason(error)) : undefined;
    } else if (store.state === 'ready' && orders.error) {
      this.orders.message = orders.updatedAt
        ? vscode.l10n.t(
            'Showing data from {0}. The last refresh failed: {1}.',
            time(orders.updatedAt),
            shortReason(orders.error),
          )
        : vscode.l10n.t('Your servers could not be loaded: {0}.', shortReason(orders.error));
    } else {
      this.orders.message = coverageMessage(store.listCoverage('orders'), 'orders');
    }
    const invoices = store.invoices;
    this.invoices.message =
      store.state === 'ready' && invoices.error
        ? invoices.updatedAt
          ? vscode.l10n.t(
              'Showing data from {0}. The last refresh failed: {1}.',
              time(invoices.updatedAt),
              shortReason(invoices.error),
            )
          : vscode.l10n.t('Invoices could not be loaded: {0}.', shortReason(invoices.error))
        : coverageMessage(store.listCoverage('invoices'), 'invoices');
  }
}

/** A list that was not read whole says so, with how much is shown and why: never a silent truncation. */
function coverageMessage(coverage: ListCoverage | undefined, what: 'orders' | 'invoices'): string | undefined {
  if (!coverage) return undefined;
  const shown = coverage.shown.toLocaleString(vscode.env.language);
  const part =
    coverage.total !== undefined
      ? what === 'orders'
        ? vscode.l10n.t('Showing {0} of {1} servers.', shown, coverage.total.toLocaleString(vscode.env.language))
        : vscode.l10n.t('Showing {0} of {1} invoices.', shown, coverage.total.toLocaleString(vscode.env.language))
      : what === 'orders'
        ? vscode.l10n.t('Showing the first {0} servers.', shown)
        : vscode.l10n.t('Showing the first {0} invoices.', shown);
  switch (coverage.stoppedBy) {
    case undefined:
      return `${part} ${vscode.l10n.t('The hosting API did not send the rest.')}`;
    case 'pageLimit':
      return `${part} ${vscode.l10n.t('The list has more than 50 pages; the rest was not read.')}`;
    case 'sizeLimit':
      return `${part} ${vscode.l10n.t('The list is larger than 10 MB; the rest was not read.')}`;
    case 'outsideApi':
      return `${part} ${vscode.l10n.t('The next page pointed outside the API and was not read.')}`;
    case 'cycle':
      return `${part} ${vscode.l10n.t("The hosting API's pages repeat; the rest was not read.")}`;
  }
}
