import * as vscode from 'vscode';
import { type Order, type OrderAction } from '../api/models';
import { forMessage } from '../notify/inert';
import { isWindowOn } from '../ssh/remoteWindow';
import { currentRemoteWindow } from '../ssh/thisWindow';
import { plain } from '../util/serverText';
import { type CommandHost } from './CommandHost';

/**
 * When this window is a Remote-SSH window on the order's server, the sentence that says what the action does to it;
 * undefined otherwise. Start cannot end the session, so it has none.
 */
export function sessionWarning(host: CommandHost, order: Order, action: OrderAction): string | undefined {
  const window = (host.ssh.remoteWindow ?? currentRemoteWindow)();
  const names = { label: plain(order.label), address: order.address, addresses: order.addresses };
  if (action === 'start' || !isWindowOn(window, names)) return undefined;
  const name = forMessage(order.label, 80);
  switch (action) {
    case 'stop':
      return vscode.l10n.t('This window is connected to {0}; stopping it ends this session.', name);
    case 'restart':
      return vscode.l10n.t('This window is connected to {0}; restarting it ends this session.', name);
    case 'reinstall':
      return vscode.l10n.t(
        'This window is connected to {0}; reinstalling it ends this session and erases the files it shows.',
        name,
      );
  }
}
