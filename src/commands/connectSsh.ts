import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { forLog, forTerminalName } from '../notify/inert';
import { sshArgs } from '../ssh/sshArgs';
import { type CommandHost } from './CommandHost';
import { pickOrderWithAddress, resolveSshTarget } from './sshTarget';

/**
 * An integrated terminal running `ssh` itself: `shellPath` and `shellArgs` are handed to the OS as an argv, so no
 * shell parses them, and the host, user and port were checked to be plain values.
 */
export async function connectSsh(_host: CommandHost, account: Account, arg?: unknown): Promise<void> {
  const order = await pickOrderWithAddress(account, arg);
  const target = await resolveSshTarget(account, order);
  const args = sshArgs(target);
  account.log.info(`ssh to order ${forLog(order.id, 80)}: ${args.join(' ')}`);
  const terminal = vscode.window.createTerminal({
    name: vscode.l10n.t('SSH: {0}', forTerminalName(order.label)),
    shellPath: 'ssh',
    shellArgs: args,
    iconPath: new vscode.ThemeIcon('remote'),
  });
  terminal.show();
}
