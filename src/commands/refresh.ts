import * as vscode from 'vscode';
import { type DataKind } from '../store/types';
import { type CommandContext } from './CommandContext';
import { explainNotConnected } from './notConnected';

/** Data loaded this recently is what the server would say again: a burst of clicks costs one request per endpoint. */
const FRESH_MS = 2_000;

/**
 * A manual refresh: never delayed, joined with any refresh already under way, and skipping what loaded a moment
 * ago, so clicks cannot pile up requests. Anything that failed is always fetched again.
 */
export async function refresh(ctx: CommandContext): Promise<void> {
  const { store } = ctx;
  // Hidden from the palette while signed out, but a keybinding can still run it: never do nothing silently.
  if (await explainNotConnected(store.state, true)) return;
  if (store.state === 'invalidKey') store.clearKeyRejection();
  const kinds: DataKind[] = ['orders', 'balance'];
  if (ctx.invoicesVisible() || store.invoices.updatedAt) kinds.push('invoices');
  if (!store.account.value) kinds.push('account');
  const stale = kinds.filter((kind) => !store.isFresh(kind, FRESH_MS));
  await vscode.window.withProgress({ location: { viewId: 'hostingAccount.orders' } }, () =>
    store.refresh(stale, 'user'),
  );
}
