/** The lazily loaded half of the UI: what runs when the user invokes a command, and how failures are told. */
import { isApiError } from '../api/errors';
import { runOnSelection } from './bulkOrderAction';
import { type CommandContext } from './CommandContext';
import { copyOrderId } from './copyOrderId';
import { type CommandId } from './ids';
import { openApiKeysPage } from './openApiKeysPage';
import { openInvoice } from './openInvoice';
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
export const handlers: Readonly<Record<CommandId, (ctx: CommandContext, arg: unknown, all: unknown) => unknown>> = {
  'hostingAccount.setApiKey': (ctx) => setApiKey(ctx),
  'hostingAccount.removeApiKey': (ctx) => removeApiKey(ctx),
  'hostingAccount.refresh': (ctx) => refresh(ctx),
  'hostingAccount.order.start': (ctx, arg, all) => runOnSelection(ctx, 'start', arg, all),
  'hostingAccount.order.stop': (ctx, arg, all) => runOnSelection(ctx, 'stop', arg, all),
  'hostingAccount.order.restart': (ctx, arg, all) => runOnSelection(ctx, 'restart', arg, all),
  'hostingAccount.order.reinstall': (ctx, arg, all) => runOnSelection(ctx, 'reinstall', arg, all),
  'hostingAccount.order.showDetails': (ctx, arg) => showOrderDetails(ctx, arg),
  'hostingAccount.order.copyId': (ctx, arg) => copyOrderId(ctx, arg),
  'hostingAccount.invoice.open': (ctx, arg) => openInvoice(ctx, arg),
  'hostingAccount.showAccount': (ctx) => showAccount(ctx),
  'hostingAccount.openApiKeysPage': (ctx) => openApiKeysPage(ctx),
  'hostingAccount.showLog': (ctx) => ctx.log.show(),
};

/**
 * The one wrapper every command goes through: a cancelled prompt is silent, any other failure is logged and shown
 * once, with the next step to take (Retry runs the command again).
 */
export async function runCommand(id: CommandId, ctx: CommandContext, arg: unknown, all?: unknown): Promise<void> {
  try {
    // `all` is the tree's selection when the command was run from it (several orders at once).
    await handlers[id](ctx, arg, all);
  } catch (error) {
    if (isCancellation(error)) return;
    // API failures were logged where they happened, with the request id; here only which command met them.
    if (isApiError(error)) ctx.log.debug(`${id} failed: ${error.kind}`);
    else logFailure(ctx.log, id, error);
    const during = id.startsWith('hostingAccount.order.') && id !== 'hostingAccount.order.showDetails' ? 'action' : undefined;
    void showReport(toReport(error, ctx.settings().baseUrl, during), () => runCommand(id, ctx, arg, all));
  }
}
