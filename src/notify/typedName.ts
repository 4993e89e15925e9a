import * as vscode from 'vscode';
import { type Order, type OrderAction } from '../api/models';
import { plain } from '../util/serverText';
import { forLabel, forLog } from './inert';

/** The confirmation a reflexive Enter cannot give: Reinstall asks it, and Stop or Restart of a protected server. */
export async function confirmByName(order: Order, action: OrderAction): Promise<boolean> {
  const label = forLabel(order.label, 80);
  const typed = await vscode.window.showInputBox({
    title: action === 'reinstall' ? vscode.l10n.t('Reinstall {0}', label) : vscode.l10n.t('{0} is protected', label),
    prompt:
      action === 'reinstall'
        ? vscode.l10n.t('Type "{0}" to confirm that all data on this server will be erased.', label)
        : action === 'stop'
          ? vscode.l10n.t('Type "{0}" to stop this protected server.', label)
          : vscode.l10n.t('Type "{0}" to restart this protected server.', label),
    placeHolder: label,
    ignoreFocusOut: true,
    validateInput: (value) =>
      matches(value, order) || !value.trim()
        ? undefined
        : vscode.l10n.t('Type the server\'s name, "{0}", or its ID, "{1}".', label, forLabel(order.id, 80)),
  });
  return typed !== undefined && matches(typed, order);
}

/** The name as shown or exactly as sent, or the exact id. */
function matches(value: string, order: Order): boolean {
  const text = value.trim();
  return text.length > 0 && (text === order.id || text === plain(order.label) || text === forLog(order.label, 200));
}
