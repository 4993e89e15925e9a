import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { forLog, forTerminalName } from '../notify/inert';
import { sshArgs } from '../ssh/sshArgs';
import { type CommandHost } from './CommandHost';
import { pickOrderForSsh, resolveSshTarget } from './sshTarget';
import { UserCancelled } from './UserCancelled';

/**
 * An integrated terminal running `ssh` itself: `shellPath` and `shellArgs` are handed to the OS as an argv, so no
 * shell parses them, and the host, user and port were checked to be plain values. After a reinstall, forgetting the
 * server's old host keys is offered first; the terminal is followed to its end, where ssh's refusal of a changed key
 * would show.
 */
export async function connectSsh(host: CommandHost, account: Account, arg?: unknown): Promise<void> {
  const order = await pickOrderForSsh(host, account, arg);
  const target = await resolveSshTarget(account, order);
  const args = sshArgs(target);
  if ((await host.hostKeys.beforeConnect(account, order, target.port)) === 'cancel') throw new UserCancelled();
  account.log.info(`ssh to order ${forLog(order.id, 80)}: ${args.join(' ')}`);
  const terminal = vscode.window.createTerminal({
    name: vscode.l10n.t('SSH: {0}', forTerminalName(order.label)),
    shellPath: 'ssh',
    shellArgs: args,
    iconPath: new vscode.ThemeIcon('remote'),
  });
  host.hostKeys.watch(terminal, account, order, target.port);
  terminal.show();
}
