/** The lazily loaded half of the UI: what runs when the user invokes a command, and how failures are told. */
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { type CommandContext } from './CommandContext';
import { copyOrderId } from './copyOrderId';
import { type CommandId } from './ids';
import { openApiKeysPage } from './openApiKeysPage';
import { openInvoice } from './openInvoice';
import { runOrderAction } from './orderAction';
import { refresh } from './refresh';
import { removeApiKey } from './removeApiKey';
import { isCancellation, logFailure, showReport, toReport } from './reportError';
import { setApiKey } from './setApiKey';
import { showAccount } from './showAccount';
import { showOrderDetails } from './showOrderDetails';

export { showInsecureTlsNotice } from './insecureTlsNotice';
export { showRateLimitWait } from './rateLimitWait';
export { logFailure, showReport, toReport } from './reportError';

/** Every contributed command, one line each. A unit test checks these ids against package.json. */
export const handlers: Readonly<Record<CommandId, (ctx: CommandContext, arg: unknown) => unknown>> = {
  'hostingAccount.setApiKey': (ctx) => setApiKey(ctx),
  'hostingAccount.removeApiKey': (ctx) => removeApiKey(ctx),
  'hostingAccount.refresh': (ctx) => refresh(ctx),
  'hostingAccount.order.start': (ctx, arg) => runOrderAction(ctx, 'start', arg),
  'hostingAccount.order.stop': (ctx, arg) => runOrderAction(ctx, 'stop', arg),
  'hostingAccount.order.restart': (ctx, arg) => runOrderAction(ctx, 'restart', arg),
  'hostingAccount.order.reinstall': (ctx, arg) => runOrderAction(ctx, 'reinstall', arg),
  'hostingAccount.order.showDetails': (ctx, arg) => showOrderDetails(ctx, arg),
  'hostingAccount.order.copyId': (ctx, arg) => copyOrderId(ctx, arg),
  'hostingAccount.invoice.open': (ctx, arg) => openInvoice(ctx, arg),
  'hostingAccount.showInvoices': () => vscode.commands.executeCommand('hostingAccount.invoices.focus'),
  'hostingAccount.showAccount': (ctx) => showAccount(ctx),
  'hostingAccount.openApiKeysPage': (ctx) => openApiKeysPage(ctx),
  'hostingAccount.showLog': (ctx) => ctx.log.show(),
};

/**
 * The one wrapper every command goes through: a cancelled prompt is silent, any other failure is logged and shown
 * once, with the next step to take (Retry runs the command again).
 */
export async function runCommand(id: CommandId, ctx: CommandContext, arg: unknown): Promise<void> {
  try {
    await handlers[id](ctx, arg);
  } catch (error) {
    if (isCancellation(error)) return;
    // API failures were logged where they happened, with the request id; here only which command met them.
    if (isApiError(error)) ctx.log.debug(`${id} failed: ${error.kind}`);
    else logFailure(ctx.log, id, error);
    const during = id.startsWith('hostingAccount.order.') && id !== 'hostingAccount.order.showDetails' ? 'action' : undefined;
    void showReport(toReport(error, ctx.settings().baseUrl, during), () => runCommand(id, ctx, arg));
  }
}
