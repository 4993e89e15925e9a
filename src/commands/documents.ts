import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { forLabel } from '../notify/inert';
import { type DataKind } from '../store/types';
import { forecastUri } from '../views/ForecastDocument';
import { historyCsv, historyJson, historyUri } from '../views/HistoryDocument';
import { InvoiceNode } from '../views/invoices/InvoicesTree';
import { orderDetailsUri } from '../views/orders/OrderDetailsDocument';
import { OrderNode } from '../views/orders/OrderNode';
import { sentUri } from '../views/ServerAnswerDocument';
import { type CommandHost } from './CommandHost';
import { pickOrder } from './pickOrder';
import { UserCancelled } from './UserCancelled';

export async function showOrderDetails(host: CommandHost, account: Account, arg?: unknown): Promise<void> {
  const order = await pickOrder(account, arg, undefined, host.folders.activeOrderIn(account.id));
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading {0}…', forLabel(order.label, 60)) },
    () => account.store.orderDetails(order.id, 0),
  );
  // Already open from an earlier Show Details: it must show this answer, not the one it was opened with.
  host.details.refresh(account, order);
  const document = await vscode.workspace.openTextDocument(orderDetailsUri(account, order));
  await vscode.window.showTextDocument(document, { preview: true });
}

/** For a row, the answers it was read from; else all of them. */
export async function showServerAnswer(account: Account, arg: unknown): Promise<void> {
  const topic = arg instanceof OrderNode ? 'orders' : arg instanceof InvoiceNode ? 'invoices' : 'all';
  await vscode.window.showTextDocument(sentUri(account, topic), { preview: true });
}

const FORECAST_INPUTS: readonly DataKind[] = ['balance', 'orders', 'invoices'];

// What was not read in the last minutes is read first (the invoices are otherwise read only while their view is open).
export async function showForecast(account: Account): Promise<void> {
  const { store } = account;
  const stale = FORECAST_INPUTS.filter((kind) => !store.isFresh(kind, 10 * 60_000));
  if (stale.length && store.hasApiKey) {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading the balance, servers and invoices…') },
      () => store.refresh(stale, 'user'),
    );
  }
  const uri = forecastUri(account);
  const document = await vscode.workspace.openTextDocument(uri);
  try {
    // Run, not looked up: the Markdown extension registers its commands only once it is active.
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  } catch {
    await vscode.window.showTextDocument(document, { preview: true });
  }
}

export async function showHistory(account: Account, arg: unknown): Promise<void> {
  const order = arg instanceof OrderNode ? arg.order : undefined;
  const uri = historyUri(account, order?.id, order && forLabel(order.label, 60));
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
}

/** CSV or JSON, as the file name the user chose says. */
export async function exportHistory(account: Account, arg: unknown): Promise<void> {
  const id = arg instanceof OrderNode ? arg.id : undefined;
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export History'),
    filters: { CSV: ['csv'], JSON: ['json'] },
  });
  if (!target) throw new UserCancelled();
  const events = (await account.history.read()).filter((event) => id === undefined || event.id === id);
  const json = target.path.toLowerCase().endsWith('.json');
  await vscode.workspace.fs.writeFile(
    target,
    new TextEncoder().encode(json ? historyJson(events) : historyCsv(events)),
  );
  vscode.window.setStatusBarMessage(vscode.l10n.t('History exported: {0} events', events.length), 5_000);
}

// The readers keep only http(s) links.
export async function openInvoice(host: CommandHost, arg?: unknown): Promise<void> {
  const url = arg instanceof InvoiceNode && host.model.accountOf(arg) ? arg.invoice.url : undefined;
  if (url) await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
