import * as vscode from 'vscode';
import { type DataKind } from '../store/types';
import { type CommandContext } from './CommandContext';

/** A manual refresh: never debounced, but joined with any refresh already under way, so clicks cannot pile up. */
export async function refresh(ctx: CommandContext): Promise<void> {
  const { store } = ctx;
  if (store.state === 'invalidKey') store.clearKeyRejection();
  const kinds: DataKind[] = ['orders', 'balance'];
  if (ctx.invoicesVisible() || store.invoices.updatedAt) kinds.push('invoices');
  if (!store.account.value) kinds.push('account');
  await vscode.window.withProgress({ location: { viewId: 'hostingAccount.orders' } }, () => store.refresh(kinds, 'user'));
}
