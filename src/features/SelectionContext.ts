import * as vscode from 'vscode';
import { type OrderAction } from '../api/models';
import { Disposable, type IDisposable } from '../util/lifecycle';
import { type OrderNode } from '../views/orders/OrderNode';
import { orderNodeOf } from '../views/orders/orderNodeOf';
import { actionsFor } from '../views/orders/orderPresentation';
import { type AccountsSource, type FeatureAccount, PerAccount } from './accountsSource';

export const BULK_ACTIONS = ['start', 'stop', 'restart'] as const satisfies readonly OrderAction[];

/**
 * With several orders selected, VS Code evaluates a menu's `when` clause against the right-clicked item only. These
 * context keys say which actions fit every selected order, so the menus can hide an action that fits just one of
 * them (`hostingAccount.selectionFits.stop`); the commands check again, since the selection can change under a menu.
 */
export class SelectionContext extends Disposable {
  private readonly values = new Map<string, boolean>();

  constructor(
    private readonly accounts: AccountsSource,
    private readonly view: vscode.TreeView<unknown>,
  ) {
    super();
    this.register(view.onDidChangeSelection(() => this.update()));
    this.register(
      new PerAccount<IDisposable>(
        accounts,
        ({ store }) => store.onDidChangeOrders(() => this.update()),
        () => this.update(),
      ),
    );
  }

  /** A selected order node with its account: asked of each account's tree, which knows its own nodes. */
  private ownerOf(node: unknown): { node: OrderNode; account: FeatureAccount } | undefined {
    for (const account of this.accounts.list()) {
      const order = orderNodeOf(account.orders, node);
      if (order) return { node: order, account };
    }
    return undefined;
  }

  private update(): void {
    const selected = this.view.selection
      .map((node) => this.ownerOf(node))
      .filter((n): n is { node: OrderNode; account: FeatureAccount } => n !== undefined);
    for (const action of BULK_ACTIONS) {
      const fits =
        selected.length > 0 &&
        selected.every(({ node, account: { store } }) => {
          const order = store.orders.get(node.id) ?? node.order;
          return actionsFor(order.state, store.pending(node.id)?.action).includes(action);
        });
      this.set(`hostingAccount.selectionFits.${action}`, fits);
    }
  }

  private set(key: string, value: boolean): void {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
