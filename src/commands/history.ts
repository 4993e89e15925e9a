import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { forLabel } from '../notify/inert';
import { historyCsv, historyJson, historyUri } from '../views/HistoryDocument';
import { OrderNode } from '../views/orders/OrderNode';
import { UserCancelled } from './UserCancelled';

/** The history of the server the argument is (a tree row), else of the whole account. */
export async function showHistory(account: Account, arg: unknown): Promise<void> {
  const order = arg instanceof OrderNode ? arg.order : undefined;
  const uri = historyUri(account, order?.id, order && forLabel(order.label, 60));
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
}

/** Writes the history (of the server, or of the account) as CSV or JSON, as the file name the user chose says. */
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
