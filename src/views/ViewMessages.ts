import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { viewMessagesOf } from '../notify/viewMessageText';
import { Disposable } from '../util/lifecycle';

/**
 * The line above the Orders and Invoices views: says when the data shown is stale and why, so a failed refresh never
 * blanks the tree and never passes unnoticed either. With several accounts each message names its account.
 */
export class ViewMessages extends Disposable {
  constructor(
    private readonly model: AccountModel,
    private readonly orders: vscode.TreeView<unknown>,
    private readonly invoices: vscode.TreeView<unknown>,
  ) {
    super();
    this.register(model.onDidChangeData(() => this.update()));
    this.register(model.onDidChangeState(() => this.update()));
    this.register(model.onDidChange(() => this.update()));
    this.update();
  }

  update(): void {
    const said = this.model.accounts.map((account) => {
      const { orders, invoices } = hasNews(account) ? viewMessagesOf(account.store, account.baseUrl) : {};
      const name = account.shownName();
      const named = (message?: string): string | undefined =>
        message && (name ? vscode.l10n.t('{0}: {1}', name, message) : message);
      return { orders: named(orders), invoices: named(invoices) };
    });
    this.orders.message = join(said.map((m) => m.orders));
    this.invoices.message = join(said.map((m) => m.invoices));
  }
}

/** The messages of several accounts, each whole and named, set apart as items rather than run together. */
function join(messages: ReadonlyArray<string | undefined>): string | undefined {
  return messages.filter(Boolean).join(' · ') || undefined;
}

/** Whether the views have anything to say of this account: stale data, a failure, or a list not read whole. */
function hasNews({ store }: Account): boolean {
  return Boolean(
    store.state === 'unreachable' ||
    store.ordersInfo.error ||
    store.invoices.error ||
    store.listCoverage('orders') ||
    store.listCoverage('invoices'),
  );
}
