import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { forLabel, forLog } from '../notify/inert';
import { actionTitle, progressLabel, stateText } from '../notify/orderWords';
import { tell } from '../notify/show';
import { hasAnyAddress, sshOffered } from '../ssh/sshOffered';
import { plain } from '../util/serverText';
import { actionsFor } from '../views/orders/orderPresentation';
import { type CommandHost } from './CommandHost';
import { type CommandId } from './ids';
import { pickOrder } from './pickOrder';
import { UserCancelled } from './UserCancelled';

// The active one (the item's); none open is told, not guessed.
function activeFolder(host: CommandHost): vscode.WorkspaceFolder {
  const folder = host.folders.activeFolder;
  if (folder) return folder;
  void tell('info', vscode.l10n.t('Open a folder first: a server is bound to a workspace folder.'));
  throw new UserCancelled();
}

export async function bindFolder(host: CommandHost, account: Account, arg: unknown): Promise<void> {
  const folder = activeFolder(host);
  const order = await pickOrder(account, arg, undefined, host.folders.activeOrderIn(account.id));
  await host.folders.bind(folder.uri, { accountId: account.id, orderId: order.id, name: plain(order.label) });
  account.log.info(`the folder ${forLog(folder.name, 80)} is bound to order ${forLog(order.id, 80)}`);
  vscode.window.setStatusBarMessage(
    vscode.l10n.t('$(pass) {0} is bound to {1}', forLabel(folder.name, 40), forLabel(order.label, 60)),
    3_000,
  );
}

export async function unbindFolder(host: CommandHost): Promise<void> {
  const folder = activeFolder(host);
  if (!host.folders.bindingOf(folder.uri)) {
    void tell('info', vscode.l10n.t('The folder {0} is not bound to a server.', forLabel(folder.name, 80)));
    throw new UserCancelled();
  }
  await host.folders.unbind(folder.uri);
  host.log.info(`the folder ${forLog(folder.name, 80)} is unbound`);
}

interface ActionPick extends vscode.QuickPickItem {
  readonly command?: CommandId;
  // Given the server's node, or nothing (a command on the folder).
  readonly onServer?: boolean;
}

/** What fits the server's state now by the tree's own rules, each run on its node as the tree would; then the folder's. */
export async function folderServerActions(host: CommandHost): Promise<void> {
  const active = host.folders.active;
  if (!active) {
    await vscode.commands.executeCommand('hostingAccount.folder.bind');
    return;
  }
  const { binding } = active;
  const account = host.model.get(binding.accountId);
  const order = account?.store.orders.get(binding.orderId);
  const node = account && host.orders.nodeFor(account, binding.orderId);
  const items: ActionPick[] = [];
  const onServer = (icon: string, label: string, command: CommandId): ActionPick => ({
    label: `$(${icon}) ${label}`,
    command,
    onServer: true,
  });
  if (account && order && node) {
    const pending = account.store.pending(order.id)?.action;
    const power = actionsFor(order.state, pending);
    const icons = { restart: 'debug-restart', stop: 'debug-stop', start: 'debug-start' } as const;
    for (const action of (['restart', 'stop', 'start'] as const).filter((a) => power.includes(a))) {
      items.push(onServer(icons[action], actionTitle(action), `hostingAccount.order.${action}`));
    }
    if (sshOffered(order, pending)) {
      items.push(onServer('terminal', vscode.l10n.t('Connect via SSH'), 'hostingAccount.order.connectSsh'));
      items.push(onServer('remote', vscode.l10n.t('Open in Remote-SSH'), 'hostingAccount.order.openRemoteSsh'));
    }
    if (hasAnyAddress(order)) {
      items.push(onServer('copy', vscode.l10n.t('Copy Address'), 'hostingAccount.order.copyAddress'));
    }
    items.push(onServer('info', vscode.l10n.t('Show Details'), 'hostingAccount.order.showDetails'));
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
  }
  items.push(
    { label: `$(link) ${vscode.l10n.t('Bind This Folder to Another Server…')}`, command: 'hostingAccount.folder.bind' },
    { label: `$(debug-disconnect) ${vscode.l10n.t('Unbind This Folder')}`, command: 'hostingAccount.folder.unbind' },
  );
  const pending = order && account?.store.pending(order.id)?.action;
  const title = order
    ? `${forLabel(order.label, 60)} · ${pending ? progressLabel(pending) : stateText(order)}`
    : `${forLabel(binding.name ?? binding.orderId, 60)} · ${vscode.l10n.t('Gone')}`;
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: vscode.l10n.t("What to do with this folder's server ({0})", forLabel(active.folder.name, 60)),
  });
  if (!picked?.command) throw new UserCancelled();
  // This very order's node, or nothing: a command never falls back to another server.
  await (picked.onServer
    ? vscode.commands.executeCommand(picked.command, node)
    : vscode.commands.executeCommand(picked.command));
}
