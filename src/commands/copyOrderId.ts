import * as vscode from 'vscode';
import { noIcons } from '../views/text';
import { type CommandContext } from './CommandContext';
import { pickOrder } from './pickOrder';

export async function copyOrderId(ctx: CommandContext, arg?: unknown): Promise<void> {
  const order = await pickOrder(ctx.store, ctx.orders, arg);
  await vscode.env.clipboard.writeText(order.id);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(copy) Copied server ID {0}', noIcons(order.id)), 3_000);
}
