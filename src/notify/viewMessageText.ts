import * as vscode from 'vscode';
import { type ApiError } from '../api/errors';
import { type Store } from '../store/Store';
import { type IdListReading, type ListCoverage } from '../store/types';
import { noListText } from './noServers';
import { shortReason } from './shortReason';

/** The lines above the Orders and Invoices views for one account: stale data and why, or a list not read whole. */
export function viewMessagesOf(store: Store, baseUrl: string): { orders?: string; invoices?: string } {
  const time = (at: number | undefined): string =>
    at ? new Date(at).toLocaleTimeString(vscode.env.language, { hour: 'numeric', minute: '2-digit' }) : '';
  const stale = (at: number | undefined, error: ApiError, unread: (reason: string) => string): string =>
    at
      ? vscode.l10n.t('Showing data from {0}. The last refresh failed: {1}.', time(at), shortReason(error))
      : unread(shortReason(error));
  const orders = store.ordersInfo;
  const invoices = store.invoices;
  const ready = store.state === 'ready';
  let ordersMessage: string | undefined;
  if (store.state === 'unreachable') {
    const error = orders.error ?? store.balance.error;
    ordersMessage = error && vscode.l10n.t('Last attempt failed: {0}', shortReason(error));
  } else if (ready && orders.error) {
    ordersMessage = stale(
      orders.updatedAt,
      orders.error,
      (reason) =>
        noListText('orders', orders, baseUrl) ?? vscode.l10n.t('Your servers could not be loaded: {0}.', reason),
    );
  } else {
    ordersMessage = coverageMessage(store.listCoverage('orders'), 'orders');
  }
  return {
    orders: ordersMessage,
    invoices:
      ready && invoices.error
        ? stale(
            invoices.updatedAt,
            invoices.error,
            (reason) =>
              noListText('invoices', invoices, baseUrl) ?? vscode.l10n.t('Invoices could not be loaded: {0}.', reason),
          )
        : coverageMessage(store.listCoverage('invoices'), 'invoices'),
  };
}

/** A list that was not read whole says so, with how much is shown and why: never a silent truncation. */
function coverageMessage(coverage: ListCoverage | undefined, what: 'orders' | 'invoices'): string | undefined {
  if (!coverage) return undefined;
  if (coverage.ids && coverage.stoppedBy === undefined && coverage.total === undefined) return idsMessage(coverage.ids);
  const shown = coverage.shown.toLocaleString(vscode.env.language);
  const why = stoppedText(coverage.stoppedBy);
  if (coverage.total === undefined) {
    return what === 'orders'
      ? vscode.l10n.t('Showing the first {0} servers: {1}.', shown, why)
      : vscode.l10n.t('Showing the first {0} invoices: {1}.', shown, why);
  }
  const total = coverage.total.toLocaleString(vscode.env.language);
  return what === 'orders'
    ? vscode.l10n.t('Showing {0} of {1} servers: {2}.', shown, total, why)
    : vscode.l10n.t('Showing {0} of {1} invoices: {2}.', shown, total, why);
}

/** A list of bare ids: what could not be shown of it. */
function idsMessage(ids: IdListReading): string | undefined {
  const count = ids.count.toLocaleString(vscode.env.language);
  if (ids.noDetails) {
    return vscode.l10n.t(
      'The hosting API listed {0} invoices by ID only, and it has no way to read one invoice.',
      count,
    );
  }
  if (ids.failed) {
    return vscode.l10n.t(
      'The hosting API listed {0} servers by ID; the details of {1} could not be read, so they are shown by ID.',
      count,
      ids.failed.toLocaleString(vscode.env.language),
    );
  }
  if (ids.notYet) {
    return vscode.l10n.t(
      'The hosting API listed {0} servers by ID; {1} are shown by ID until their details are read (100 a refresh).',
      count,
      ids.notYet.toLocaleString(vscode.env.language),
    );
  }
  return undefined;
}

/** Why the rest of a list was not read: a clause that stands after a colon. */
function stoppedText(stoppedBy: ListCoverage['stoppedBy']): string {
  switch (stoppedBy) {
    case undefined:
      return vscode.l10n.t('the hosting API did not send the rest');
    case 'pageLimit':
      return vscode.l10n.t('the list has more than 50 pages, and the rest was not read');
    case 'sizeLimit':
      return vscode.l10n.t('the list is larger than 10 MB, and the rest was not read');
    case 'outsideApi':
      return vscode.l10n.t('the next page pointed outside the API and was not read');
    case 'cycle':
      return vscode.l10n.t("the hosting API's pages repeat, and the rest was not read");
    case 'countLimit':
      return vscode.l10n.t('the list has more than 20,000 entries, and the rest was not read');
  }
}
