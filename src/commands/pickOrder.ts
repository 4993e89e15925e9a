import * as vscode from 'vscode';
import { noIcons } from '../views/text';
import { type Order, type OrderAction } from '../api/models';
import { type Store } from '../store/Store';
import { type OrdersTreeProvider } from '../views/orders/OrdersTreeProvider';
import { actionsFor, orderLook } from '../views/orders/orderPresentation';
import { orderNodeOf } from '../views/orders/orderNodeOf';
import { stateText } from '../views/orders/orderStrings';
import { UserCancelled } from './UserCancelled';

interface OrderPick extends vscode.QuickPickItem {
  readonly order: Order;
}

/**
 * The order a command acts on: the tree node it was invoked on, an id passed by a keybinding or another extension,
 * or, from the palette, the user's pick among the orders the action fits.
 */
export async function pickOrder(
  store: Store,
  tree: OrdersTreeProvider,
  arg: unknown,
  action?: OrderAction | ((order: Order) => boolean),
): Promise<Order> {
  const node = orderNodeOf(tree, arg);
  if (node) return store.orders.get(node.id) ?? node.order;
  if (typeof arg === 'string' || typeof arg === 'number') {
    const id = String(arg);
    return store.orders.get(id) ?? (await store.orderDetails(id));
  }
  if (!store.ordersInfo.updatedAt) {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading your servers…') },
      () => store.refresh(['orders'], 'user'),
    );
    if (store.ordersInfo.error && !store.ordersInfo.updatedAt) throw store.ordersInfo.error;
  }
  const fits = (order: Order): boolean =>
    typeof action === 'function'
      ? action(order)
      : !action || actionsFor(order.state, store.pending(order.id)?.action).includes(action);
  const candidates = store.orders.all.filter(fits);
  if (!candidates.length) {
    const message =
      store.orders.size === 0
        ? vscode.l10n.t('This account has no servers.')
        : vscode.l10n.t('No server is in a state that allows this action right now.');
    void vscode.window.showInformationMessage(message);
    throw new UserCancelled();
  }
  const items: OrderPick[] = candidates.map((order) => ({
    order,
    label: `$(${orderLook(order.state).icon}) ${noIcons(order.label)}`,
    description: stateText(order),
    detail: noIcons([order.address, order.plan, vscode.l10n.t('ID {0}', order.id)].filter(Boolean).join(' · ')),
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Select a server'),
    placeHolder: vscode.l10n.t('Type to filter servers by name, address or ID'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) throw new UserCancelled();
  return picked.order;
}
