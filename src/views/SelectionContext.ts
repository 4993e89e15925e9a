import * as vscode from 'vscode';
import { type AccountModel } from '../accounts/AccountModel';
import { type OrderAction } from '../api/models';
import { Disposable } from '../util/lifecycle';
import { OrderNode } from './orders/OrderNode';
import { actionsFor } from './orders/orderPresentation';

export const BULK_ACTIONS = ['start', 'stop', 'restart'] as const satisfies readonly OrderAction[];

/**
 * With several orders selected, VS Code evaluates a menu's `when` clause against the right-clicked item only. These
 * context keys say which actions fit every selected order, so the menus can hide an action that fits just one of
 * them (`hostingAccount.selectionFits.stop`); the commands check again, since the selection can change under a menu.
 */
export class SelectionContext extends Disposable {
  private readonly values = new Map<string, boolean>();

  constructor(
    model: AccountModel,
    private readonly view: vscode.TreeView<unknown>,
  ) {
    super();
    this.register(view.onDidChangeSelection(() => this.update()));
    this.register(model.onDidChangeOrders(() => this.update()));
  }

  private update(): void {
    const selected = this.view.selection.filter((node): node is OrderNode => node instanceof OrderNode);
    for (const action of BULK_ACTIONS) {
      const fits =
        selected.length > 0 &&
        selected.every((node) => {
          const { store } = node.account;
          const order = store.orders.get(node.id) ?? node.order;
          return !order.duplicateId && actionsFor(order.state, store.pending(node.id)?.action).includes(action);
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
