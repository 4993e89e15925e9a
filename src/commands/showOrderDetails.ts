import * as vscode from 'vscode';
import { orderDetailsUri } from '../views/orders/OrderDetailsDocument';
import { type CommandContext } from './CommandContext';
import { pickOrder } from './pickOrder';

/** Opens every field of `GET /orders/{id}` as a read-only JSON document. */
export async function showOrderDetails(ctx: CommandContext, arg?: unknown): Promise<void> {
  const order = await pickOrder(ctx.store, ctx.orders, arg);
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading {0}…', order.label) },
    () => ctx.store.orderDetails(order.id, 0),
  );
  // Already open from an earlier Show Details: it must show this answer, not the one it was opened with.
  ctx.details.refresh(order, ctx.accountId);
  const document = await vscode.workspace.openTextDocument(orderDetailsUri(order, ctx.accountId));
  await vscode.window.showTextDocument(document, { preview: true });
}
