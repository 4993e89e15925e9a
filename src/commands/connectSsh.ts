import * as vscode from 'vscode';
import { sshArgs } from '../ssh/sshArgs';
import { noIcons } from '../views/text';
import { type CommandContext } from './CommandContext';
import { pickOrderWithAddress, resolveSshTarget } from './sshTarget';

/**
 * An integrated terminal running `ssh` itself: `shellPath` and `shellArgs` are handed to the OS as an argv, so no
 * shell parses them, and the host, user and port were checked to be plain values.
 */
export async function connectSsh(ctx: CommandContext, arg?: unknown): Promise<void> {
  const order = await pickOrderWithAddress(ctx, arg);
  const target = await resolveSshTarget(ctx, order);
  const args = sshArgs(target);
  ctx.log.info(`ssh to order ${order.id}: ${args.join(' ')}`);
  const terminal = vscode.window.createTerminal({
    name: vscode.l10n.t('SSH: {0}', noIcons(order.label.slice(0, 60))),
    shellPath: 'ssh',
    shellArgs: args,
    iconPath: new vscode.ThemeIcon('remote'),
  });
  terminal.show();
}
