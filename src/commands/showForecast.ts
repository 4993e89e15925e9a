import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type DataKind } from '../store/types';
import { forecastUri } from '../views/ForecastDocument';

/** What the forecast is made from; what is older than this is read again first, since the user asked. */
const FRESH_MS = 10 * 60_000;
const INPUTS: readonly DataKind[] = ['balance', 'orders', 'invoices'];

/**
 * Opens the account's renewal forecast (a read-only Markdown document), rendered by VS Code's Markdown preview where
 * there is one. The balance, servers and invoices are read first when they were not read in the last minutes (the
 * invoices are otherwise read only while their view is open).
 */
export async function showForecast(account: Account): Promise<void> {
  const { store } = account;
  const stale = INPUTS.filter((kind) => !store.isFresh(kind, FRESH_MS));
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
