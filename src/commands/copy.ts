import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { forLabel } from '../notify/inert';
import { type CommandHost } from './CommandHost';
import { pickOrder } from './pickOrder';
import { chooseAddress, pickOrderWithAddress, requirePlainHost } from './sshTarget';

// The clipboard gets the exact id; the status bar shows it made inert.
export async function copyOrderId(host: CommandHost, account: Account, arg?: unknown): Promise<void> {
  const order = await pickOrder(account, arg, undefined, host.folders.activeOrderIn(account.id));
  await vscode.env.clipboard.writeText(order.id);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(copy) Copied server ID {0}', forLabel(order.id, 80)), 3_000);
}

// Only a plain IP or host name reaches the clipboard.
export async function copyAddress(host: CommandHost, account: Account, arg?: unknown): Promise<void> {
  const order = await pickOrderWithAddress(host, account, arg);
  const { address } = await chooseAddress(account, order, { askUser: false });
  const plainHost = requirePlainHost(order, address);
  await vscode.env.clipboard.writeText(plainHost);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(copy) Copied address {0}', forLabel(plainHost, 80)), 3_000);
}
