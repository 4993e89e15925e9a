import * as vscode from 'vscode';
import { type Order, type OrderAction } from '../api/models';
import { actionTitle, progressLabel } from '../views/orders/orderStrings';
import { type CommandContext } from './CommandContext';
import { pickOrder } from './pickOrder';
import { sessionWarning } from './remoteGuard';
import { UserCancelled } from './UserCancelled';

/** Pick (or take) the order, confirm as the action deserves, send it once. The store shows progress on the node. */
export async function runOrderAction(ctx: CommandContext, action: OrderAction, arg: unknown): Promise<void> {
  const order = await pickOrder(ctx.store, ctx.orders, arg, action);
  if (!(await confirm(ctx, action, order))) throw new UserCancelled();
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `${order.label}: ${progressLabel(action)}` },
    () => ctx.store.runAction(order.id, action),
  );
}

async function confirm(ctx: CommandContext, action: OrderAction, order: Order): Promise<boolean> {
  switch (action) {
    case 'start':
      return true;
    case 'stop':
    case 'restart': {
      // In a Remote-SSH window on this very server the question is always asked: the answer ends this session.
      const warning = sessionWarning(ctx, order, action);
      if (!warning && !ctx.settings().confirmStopAndRestart) return true;
      const title = actionTitle(action);
      const message =
        action === 'stop' ? vscode.l10n.t('Stop {0}?', order.label) : vscode.l10n.t('Restart {0}?', order.label);
      const consequence =
        action === 'stop'
          ? vscode.l10n.t(
              'The server shuts down and whatever runs on it becomes unavailable until it is started again.',
            )
          : vscode.l10n.t('The server reboots and whatever runs on it is briefly unavailable.');
      const detail = warning ? `${warning}\n\n${consequence}` : consequence;
      return (await vscode.window.showWarningMessage(message, { modal: true, detail }, title)) === title;
    }
    case 'reinstall':
      return confirmReinstall(order, sessionWarning(ctx, order, action));
  }
}

/**
 * Reinstall wipes the server, so it takes two deliberate steps: a modal that says so, then typing the order's name
 * (or id) — a reflexive Enter cannot get through.
 */
async function confirmReinstall(order: Order, warning: string | undefined): Promise<boolean> {
  const button = vscode.l10n.t('Reinstall…');
  const detail = vscode.l10n.t(
    "Reinstalling deletes everything on the server's disks and installs a fresh system. This cannot be undone. You will be asked to type the server's name to confirm.",
  );
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Reinstall {0}? This erases the server.', order.label),
    { modal: true, detail: warning ? `${warning}\n\n${detail}` : detail },
    button,
  );
  if (answer !== button) return false;
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Reinstall {0}', order.label),
    prompt: vscode.l10n.t('Type "{0}" to confirm that all data on this server will be erased.', order.label),
    placeHolder: order.label,
    ignoreFocusOut: true,
    validateInput: (value) =>
      matches(value, order) || !value.trim()
        ? undefined
        : vscode.l10n.t('Type the server\'s name, "{0}", or its ID, "{1}".', order.label, order.id),
  });
  return typed !== undefined && matches(typed, order);
}

function matches(value: string, order: Order): boolean {
  const text = value.trim();
  return text.length > 0 && (text === order.label || text === order.id);
}
