import type * as vscode from 'vscode';
import { type AccountModel } from '../accounts/AccountModel';
import { type OrderAction } from '../api/models';
import { Disposable } from '../util/lifecycle';
import { contextSetter } from './contextKeys';
import { OrderNode } from './orders/OrderNode';
import { type OrdersTree } from './orders/OrdersTree';
import { actionsFor } from './orders/orderPresentation';

const BULK_ACTIONS = ['start', 'stop', 'restart'] as const satisfies readonly OrderAction[];

/**
 * A menu's `when` clause sees only the right-clicked item: these keys say which actions fit every selected order
 * (`hostingAccount.selectionFits.stop`), and each order of several selected says so in its contextValue (`.selected`):
 * a row right-clicked outside the selection is acted on alone. The commands check again, as the selection can change.
 */
export class SelectionContext extends Disposable {
  private readonly set = contextSetter();

  private marked: readonly OrderNode[] = [];

  constructor(
    model: AccountModel,
    private readonly view: vscode.TreeView<unknown>,
    private readonly tree: OrdersTree,
  ) {
    super();
    this.register(view.onDidChangeSelection(() => this.update()));
    this.register(model.onDidChangeOrders(() => this.update()));
  }

  private update(): void {
    const selected = this.view.selection.filter((node): node is OrderNode => node instanceof OrderNode);
    const marked = this.view.selection.length > 1 ? selected : [];
    const changed = [...this.marked, ...marked].filter((node) => node.inSelection !== marked.includes(node));
    for (const node of changed) node.inSelection = !node.inSelection;
    this.marked = marked;
    this.tree.redraw(changed);
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
