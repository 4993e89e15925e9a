import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { forLabel } from '../notify/inert';
import { orderDetailsUri } from '../views/orders/OrderDetailsDocument';
import { type CommandHost } from './CommandHost';
import { pickOrder } from './pickOrder';

/** Opens every field of `GET /orders/{id}` as a read-only JSON document. */
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
