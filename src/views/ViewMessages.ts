import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { viewMessagesOf } from '../notify/viewMessageText';
import { Disposable } from '../util/lifecycle';

// A failed refresh never blanks the tree, and never passes unnoticed either: the line above the view says so.
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

function join(messages: ReadonlyArray<string | undefined>): string | undefined {
  return messages.filter(Boolean).join(' · ') || undefined;
}

function hasNews({ store }: Account): boolean {
  return Boolean(
    store.state === 'unreachable' ||
    store.ordersInfo.error ||
    store.invoices.error ||
    store.listCoverage('orders') ||
    store.listCoverage('invoices'),
  );
}
