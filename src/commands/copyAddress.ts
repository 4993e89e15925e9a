import * as vscode from 'vscode';
import { noIcons } from '../views/text';
import { type CommandContext } from './CommandContext';
import { chooseAddress, pickOrderWithAddress, requirePlainHost } from './sshTarget';

/** Copies the order's address (a pick when it has several); only a plain IP or host name reaches the clipboard. */
export async function copyAddress(ctx: CommandContext, arg?: unknown): Promise<void> {
  const order = await pickOrderWithAddress(ctx, arg);
  const { address } = await chooseAddress(ctx, order, { askUser: false });
  const host = requirePlainHost(order, address);
  await vscode.env.clipboard.writeText(host);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(copy) Copied address {0}', noIcons(host)), 3_000);
}
