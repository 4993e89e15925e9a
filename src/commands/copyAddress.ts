import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { forLabel } from '../notify/inert';
import { type CommandHost } from './CommandHost';
import { chooseAddress, pickOrderWithAddress, requirePlainHost } from './sshTarget';

/** Copies the order's address (a pick when it has several); only a plain IP or host name reaches the clipboard. */
export async function copyAddress(host: CommandHost, account: Account, arg?: unknown): Promise<void> {
  const order = await pickOrderWithAddress(host, account, arg);
  const { address } = await chooseAddress(account, order, { askUser: false });
  const plainHost = requirePlainHost(order, address);
  await vscode.env.clipboard.writeText(plainHost);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(copy) Copied address {0}', forLabel(plainHost, 80)), 3_000);
}
