import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type DataKind } from '../store/types';
import { type CommandHost } from './CommandHost';
import { explainNotConnected } from './notConnected';

// Data loaded this recently is what the server would say again: a burst of clicks costs one request per endpoint.
const FRESH_MS = 2_000;

/** Of the account its argument names, else of every account; joined with any refresh under way, never delayed. */
export async function refresh(host: CommandHost, arg: unknown): Promise<void> {
  const { model } = host;
  const named = model.accountOf(arg);
  if (!named && model.namesAccount(arg)) return;
  const accounts = named ? [named] : model.accounts;
  const ready = accounts.filter((account) => account.store.hasApiKey);
  // Hidden from the palette while signed out, but a keybinding can still run it: never do nothing silently.
  if (!ready.length) {
    await explainNotConnected(accounts[0] ?? model.first, true);
    return;
  }
  await vscode.window.withProgress({ location: { viewId: 'hostingAccount.orders' } }, () =>
    Promise.all(ready.map((account) => refreshAccount(host, account))),
  );
}

async function refreshAccount(host: CommandHost, account: Account): Promise<void> {
  const { store } = account;
  if (store.state === 'invalidKey') store.clearKeyRejection();
  const kinds: DataKind[] = ['orders', 'balance'];
  if (host.invoicesView.visible || store.invoices.updatedAt) kinds.push('invoices');
  if (!store.account.value) kinds.push('account');
  await store.refresh(
    kinds.filter((kind) => !store.isFresh(kind, FRESH_MS)),
    'user',
  );
}
