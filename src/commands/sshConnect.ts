import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { forLog, forTerminalName } from '../notify/inert';
import { tell } from '../notify/show';
import { sshArgs } from '../ssh/sshArgs';
import { type CommandHost } from './CommandHost';
import { pickOrderForSsh, resolveSshTarget } from './sshTarget';
import { UserCancelled } from './UserCancelled';

const OPEN_EMPTY_WINDOW = 'opensshremotes.openEmptyWindow';
const REMOTE_SSH_ID = 'ms-vscode-remote.remote-ssh';

/**
 * `shellPath` and `shellArgs` go to the OS as an argv, so no shell parses them. The terminal is followed to its end,
 * where ssh's refusal of a changed host key would show.
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

/** Through the Remote-SSH extension's own command (compatible open-source ones provide it too); no SSH config written. */
export async function openRemoteSsh(host: CommandHost, account: Account, arg?: unknown): Promise<void> {
  const order = await pickOrderForSsh(host, account, arg);
  const target = await resolveSshTarget(account, order);
  // The same checks as for a terminal: what Remote-SSH gets is what ssh would get.
  sshArgs(target);
  const command = host.ssh.remoteSshCommand ?? OPEN_EMPTY_WINDOW;
  if (!(await remoteSshAvailable(command))) {
    await offerRemoteSsh();
    return;
  }
  if ((await host.hostKeys.beforeConnect(account, order, target.port)) === 'cancel') throw new UserCancelled();
  account.log.info(
    `Remote-SSH window for order ${forLog(order.id, 80)}: ${target.user}@${target.host} port ${target.port}`,
  );
  await vscode.commands.executeCommand(command, { host: target.host, userName: target.user, port: target.port });
}

// Registered (the extension is active) or contributed (it activates on the command).
async function remoteSshAvailable(command: string): Promise<boolean> {
  const contributed = vscode.extensions.all.some((extension) => {
    const commands = (extension.packageJSON as { contributes?: { commands?: unknown } } | undefined)?.contributes
      ?.commands;
    return Array.isArray(commands) && commands.some((c) => (c as { command?: unknown } | null)?.command === command);
  });
  return contributed || (await vscode.commands.getCommands(true)).includes(command);
}

async function offerRemoteSsh(): Promise<void> {
  const install = vscode.l10n.t('Install Remote - SSH');
  const show = vscode.l10n.t('Show Extension');
  const answer = await tell(
    'info',
    vscode.l10n.t('Opening a server in a new window needs the Remote - SSH extension, which is not installed.'),
    install,
    show,
  );
  if (answer === install) await vscode.commands.executeCommand('workbench.extensions.installExtension', REMOTE_SSH_ID);
  else if (answer === show) await vscode.commands.executeCommand('extension.open', REMOTE_SSH_ID);
  else throw new UserCancelled();
}
