import * as vscode from 'vscode';
import { type CommandContext } from './CommandContext';
import { copyOrderId } from './copyOrderId';
import { openApiKeysPage } from './openApiKeysPage';
import { openInvoice } from './openInvoice';
import { runOrderAction } from './orderAction';
import { refresh } from './refresh';
import { registerCommand } from './registerCommand';
import { removeApiKey } from './removeApiKey';
import { setApiKey } from './setApiKey';
import { showAccount } from './showAccount';
import { showOrderDetails } from './showOrderDetails';

/** Every contributed command, one line each. A unit test checks this table against package.json. */
export function commandTable(ctx: CommandContext): Record<string, (...args: unknown[]) => unknown> {
  return {
    'hostingAccount.setApiKey': () => setApiKey(ctx),
    'hostingAccount.removeApiKey': () => removeApiKey(ctx),
    'hostingAccount.refresh': () => refresh(ctx),
    'hostingAccount.order.start': (arg) => runOrderAction(ctx, 'start', arg),
    'hostingAccount.order.stop': (arg) => runOrderAction(ctx, 'stop', arg),
    'hostingAccount.order.restart': (arg) => runOrderAction(ctx, 'restart', arg),
    'hostingAccount.order.reinstall': (arg) => runOrderAction(ctx, 'reinstall', arg),
    'hostingAccount.order.showDetails': (arg) => showOrderDetails(ctx, arg),
    'hostingAccount.order.copyId': (arg) => copyOrderId(ctx, arg),
    'hostingAccount.invoice.open': (arg) => openInvoice(arg),
    'hostingAccount.showAccount': () => showAccount(ctx),
    'hostingAccount.openApiKeysPage': () => openApiKeysPage(ctx),
    'hostingAccount.showLog': () => ctx.log.show(),
  };
}

export function registerCommands(ctx: CommandContext): vscode.Disposable {
  const baseUrl = (): string => ctx.settings().baseUrl;
  return vscode.Disposable.from(
    ...Object.entries(commandTable(ctx)).map(([id, handler]) => registerCommand(id, handler, ctx.log, baseUrl)),
  );
}
