import type * as vscode from 'vscode';
import { type AccountModel } from '../accounts/AccountModel';
import { type OrderAction } from '../api/models';
import { Disposable } from '../util/lifecycle';
import { contextSetter } from './contextKeys';
import { OrderNode } from './orders/OrderNode';
import { actionsFor } from './orders/orderPresentation';

const BULK_ACTIONS = ['start', 'stop', 'restart'] as const satisfies readonly OrderAction[];

/**
 * A menu's `when` clause sees only the right-clicked item: these keys say which actions fit every selected order
 * (`hostingAccount.selectionFits.stop`). The commands check again, since the selection can change under a menu.
 */
export class SelectionContext extends Disposable {
  private readonly set = contextSetter();

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
}
