import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type Order, type OrderAction } from '../api/models';
import { forLabel, forMessage } from '../notify/inert';
import { actionTitle, progressTitle } from '../notify/orderWords';
import { confirm } from '../notify/show';
import { isWindowOn } from '../ssh/remoteWindow';
import { currentRemoteWindow } from '../ssh/thisWindow';
import { type ActionSource } from '../store/types';
import { plain } from '../util/serverText';
import { OrderNode } from '../views/orders/OrderNode';
import { type CommandHost } from './CommandHost';
import { pickOrder } from './pickOrder';
import { UserCancelled } from './UserCancelled';

export async function runOrderAction(
  host: CommandHost,
  account: Account,
  action: OrderAction,
  arg: unknown,
): Promise<void> {
  // An id from a keybinding or another extension is told as the palette: no row was clicked.
  const source: ActionSource = arg instanceof OrderNode ? 'menu' : 'palette';
  const order = await pickOrder(account, arg, action, host.folders.activeOrderIn(account.id));
  if (!(await confirmAction(host, account, action, order))) throw new UserCancelled();
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: progressTitle(action, forLabel(order.label, 60)) },
    () => account.store.runAction(order.id, action, source),
  );
}

async function confirmAction(host: CommandHost, account: Account, action: OrderAction, order: Order): Promise<boolean> {
  const name = forMessage(order.label, 80);
  const where = account.shownName();
  const inAccount = where ? `${vscode.l10n.t('In the account {0}.', where)}\n\n` : '';
  switch (action) {
    case 'start':
      return true;
    case 'stop':
    case 'restart': {
      // In a Remote-SSH window on this very server the question is always asked: the answer ends this session.
      const warning = sessionWarning(host, order, action);
      // The typed name its way asks is question enough.
      if (!warning && (account.asksName(order.id, action) || !account.settings.confirmStopAndRestart)) return true;
      const message = action === 'stop' ? vscode.l10n.t('Stop {0}?', name) : vscode.l10n.t('Restart {0}?', name);
      const consequence =
        action === 'stop'
          ? vscode.l10n.t(
              'The server shuts down and whatever runs on it becomes unavailable until it is started again.',
            )
          : vscode.l10n.t('The server reboots and whatever runs on it is briefly unavailable.');
      const detail = `${inAccount}${warning ? `${warning}\n\n` : ''}${consequence}`;
      return confirm(message, detail, actionTitle(action));
    }
    case 'reinstall': {
      const warning = `${inAccount}${sessionWarning(host, order, action) ?? ''}`.trim();
      const detail = vscode.l10n.t(
        "Reinstalling deletes everything on the server's disks and installs a fresh system. This cannot be undone. You will be asked to type the server's name to confirm.",
      );
      return confirm(
        vscode.l10n.t('Reinstall {0}? This erases the server.', name),
        warning ? `${warning}\n\n${detail}` : detail,
        vscode.l10n.t('Reinstall…'),
      );
    }
  }
}

/** When this window is a Remote-SSH window on the order's server: what the action does to it (Start ends nothing). */
function sessionWarning(host: CommandHost, order: Order, action: OrderAction): string | undefined {
  const window = (host.ssh.remoteWindow ?? currentRemoteWindow)();
  const names = { label: plain(order.label), address: order.address, addresses: order.addresses };
  if (action === 'start' || !isWindowOn(window, names)) return undefined;
  const name = forMessage(order.label, 80);
  return {
    stop: vscode.l10n.t('This window is connected to {0}; stopping it ends this session.', name),
    restart: vscode.l10n.t('This window is connected to {0}; restarting it ends this session.', name),
    reinstall: vscode.l10n.t(
      'This window is connected to {0}; reinstalling it ends this session and erases the files it shows.',
      name,
    ),
  }[action];
}
