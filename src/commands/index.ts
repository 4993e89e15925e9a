/** The lazily loaded half of the UI: what runs when the user invokes a command. */
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { type FailureContext, logFailure, showReport, toReport } from '../notify/report';
import { addAccount, editAccountAddress, removeAccount, renameAccount } from './accounts';
import { runOnSelection } from './bulkOrderAction';
import { type CommandContext } from './CommandContext';
import { connectSsh } from './connectSsh';
import { copyAddress } from './copyAddress';
import { copyOrderId } from './copyOrderId';
import { type CommandId } from './ids';
import { openApiKeysPage } from './openApiKeysPage';
import { openInvoice } from './openInvoice';
import { openRemoteSsh } from './openRemoteSsh';
import { watchReachability } from './reachability';
import { refresh } from './refresh';
import { removeApiKey } from './removeApiKey';
import { setApiKey } from './setApiKey';
import { showAccount } from './showAccount';
import { showOrderDetails } from './showOrderDetails';
import { isCancellation } from './UserCancelled';

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
  'hostingAccount.order.copyAddress': (ctx, arg) => copyAddress(ctx, arg),
  'hostingAccount.order.connectSsh': (ctx, arg) => connectSsh(ctx, arg),
  'hostingAccount.order.openRemoteSsh': (ctx, arg) => openRemoteSsh(ctx, arg),
  'hostingAccount.invoice.open': (_ctx, arg) => openInvoice(arg),
  'hostingAccount.showInvoices': () => vscode.commands.executeCommand('hostingAccount.invoices.focus'),
  'hostingAccount.showAccount': (ctx) => showAccount(ctx),
  'hostingAccount.openApiKeysPage': (ctx) => openApiKeysPage(ctx),
  'hostingAccount.showLog': (ctx) => ctx.log.show(),
  'hostingAccount.account.add': (ctx) => addAccount(ctx),
  'hostingAccount.account.rename': (ctx, arg) => renameAccount(ctx, arg),
  'hostingAccount.account.remove': (ctx, arg) => removeAccount(ctx, arg),
  'hostingAccount.account.editAddress': (ctx, arg) => editAccountAddress(ctx, arg),
};

/**
 * How each command's failures are told; `plain` unless listed. Only a command that sends an action says whether its
 * failure left the action unsent or possibly received: Copy Order ID or a picker failing never does.
 */
const failures: { readonly [K in CommandId]?: FailureContext } = {
  'hostingAccount.order.start': 'action',
  'hostingAccount.order.stop': 'action',
  'hostingAccount.order.restart': 'action',
  'hostingAccount.order.reinstall': 'action',
};

/**
 * The one wrapper every command goes through: a cancelled prompt is silent, any other failure is logged and shown
 * once, with the next step to take (Retry runs the command again).
 */
export async function runCommand(id: CommandId, ctx: CommandContext, arg: unknown, all?: unknown): Promise<void> {
  // Before any action can be sent: its settling into running starts the wait for the SSH port.
  watchReachability(ctx);
  try {
    // `all` is the tree's selection when the command was run from it (several orders at once).
    await handlers[id](ctx, arg, all);
  } catch (error) {
    if (isCancellation(error)) return;
    // API failures were logged where they happened, with the request id; here only which command met them.
    if (error instanceof ApiError) ctx.log.debug(`${id} failed: ${error.kind}`);
    else logFailure(ctx.log, id, error);
    void showReport(toReport(error, ctx.settings().baseUrl, failures[id]), () =>
      runCommand(id, ctx, arg, all),
    );
  }
}
