import type * as vscode from 'vscode';
import { type Store } from '../store/Store';
import { Disposable } from '../util/lifecycle';
import { viewMessagesOf } from '../notify/viewMessageText';

/** An account's messages; with several accounts each names its account (a view has one message line). */
export interface MessageSource {
  readonly name: string;
  readonly store: Store;
}

/**
 * The line above the orders: says when the data shown is stale and why, so a failed refresh never blanks the tree
 * and never passes unnoticed either.
 */
export class ViewMessages extends Disposable {
  /** Set by the accounts bundle while there are several accounts: every account's messages, each named. */
  accounts?: () => readonly MessageSource[];

  constructor(
    private readonly store: Store,
    private readonly orders: vscode.TreeView<unknown>,
    private readonly invoices: vscode.TreeView<unknown>,
  ) {
    super();
    this.register(store.onDidChangeData(() => this.update()));
    this.register(store.onDidChangeState(() => this.update()));
    this.update();
  }

  update(): void {
    const sources = this.accounts?.() ?? [{ name: '', store: this.store }];
    const said = sources.map(({ name, store }) => {
      // The wording loads with the first thing to say, not at activation.
      const { orders, invoices } = hasNews(store) ? viewMessagesOf(store) : {};
      const named = (message?: string) => message && (name ? `${name}: ${message}` : message);
      return { orders: named(orders), invoices: named(invoices) };
    });
    this.orders.message =
      said
        .map((m) => m.orders)
        .filter(Boolean)
        .join(' ') || undefined;
    this.invoices.message =
      said
        .map((m) => m.invoices)
        .filter(Boolean)
        .join(' ') || undefined;
  }
}

/** Whether the views have anything to say of this account: stale data, a failure, or a list not read whole. */
function hasNews(store: Store): boolean {
  return Boolean(
    store.state === 'unreachable' ||
    store.ordersInfo.error ||
    store.invoices.error ||
    store.listCoverage('orders') ||
    store.listCoverage('invoices'),
  );
}
