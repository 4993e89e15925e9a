import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { forLabel } from '../notify/inert';
import { type CommandHost } from './CommandHost';
import { pickOrder } from './pickOrder';

/** The exact id (the clipboard gets what the server sent); the status bar shows it made inert. */
export async function copyOrderId(host: CommandHost, account: Account, arg?: unknown): Promise<void> {
  const order = await pickOrder(account, arg, undefined, host.folders.activeOrderIn(account.id));
  await vscode.env.clipboard.writeText(order.id);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(copy) Copied server ID {0}', forLabel(order.id, 80)), 3_000);
}
