import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type Order, type OrderAction } from '../api/models';
import { forLabel } from '../notify/inert';
import { noListText, tellNoList } from '../notify/noServers';
import { stateText } from '../notify/orderWords';
import { tell } from '../notify/show';
import { OrderNode } from '../views/orders/OrderNode';
import { actionsFor, orderLook } from '../views/orders/orderPresentation';
import { UserCancelled } from './UserCancelled';

interface OrderPick extends vscode.QuickPickItem {
  readonly order: Order;
}

/**
 * The node it was invoked on (only while it speaks for the account's current session), an id passed by a keybinding,
 * or the user's pick among the orders the action fits. What comes back is the order with that exact id in it now.
 */
export async function pickOrder(
  account: Account,
  arg: unknown,
  action?: OrderAction | ((order: Order) => boolean),
  folderServer?: string,
): Promise<Order> {
  const { store } = account;
  if (arg instanceof OrderNode) {
    if (!arg.current) {
      void tell(
        'info',
        vscode.l10n.t("This account's key or address changed since its servers were listed. Pick the server again."),
      );
      throw new UserCancelled();
    }
    return store.orders.get(arg.id) ?? arg.order;
  }
  if (typeof arg === 'string' || typeof arg === 'number') {
    const id = String(arg);
    return store.orders.get(id) ?? (await store.orderDetails(id));
  }
  // With nothing to offer yet, the read under way (or a new one) is waited for rather than told about.
  if (!store.ordersInfo.updatedAt || (store.ordersInfo.loading && !store.orders.size)) {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading your servers…') },
      () => store.refresh(['orders'], 'user'),
    );
  }
  const none = noListText('orders', store.ordersInfo, account.baseUrl);
  if (none !== undefined) {
    void tellNoList(none, account, store.ordersInfo.error !== undefined);
    throw new UserCancelled();
  }
  if (store.ordersInfo.error && !store.orders.size) throw store.ordersInfo.error;
  // An order whose id another one has too is never offered: the server would pick which of them gets the request.
  const fits = (order: Order): boolean =>
    !order.duplicateId &&
    (typeof action === 'function'
      ? action(order)
      : !action || actionsFor(order.state, store.pending(order.id)?.action).includes(action));
  const fitting = store.orders.all.filter(fits);
  // The folder's server first, so Enter picks it.
  const bound = folderServer === undefined ? undefined : fitting.find((order) => order.id === folderServer);
  const candidates = bound ? [bound, ...fitting.filter((order) => order !== bound)] : fitting;
  if (!candidates.length) {
    void tell('info', vscode.l10n.t('No server is in a state that allows this action right now.'));
    throw new UserCancelled();
  }
  const items: OrderPick[] = candidates.map((order) => ({
    order,
    label: `$(${orderLook(order.state).icon}) ${forLabel(order.label)}`,
    description:
      order === bound ? `$(folder) ${vscode.l10n.t("this folder's server")} · ${stateText(order)}` : stateText(order),
    detail: [order.address, order.plan, vscode.l10n.t('ID {0}', forLabel(order.id, 80))]
      .filter((part) => part !== undefined)
      .map((part) => forLabel(part, 80))
      .join(' · '),
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: account.shownName()
      ? vscode.l10n.t('Select a server of {0}', forLabel(account.name, 60))
      : vscode.l10n.t('Select a server'),
    placeHolder: vscode.l10n.t('Type to filter servers by name, address or ID'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) throw new UserCancelled();
  return picked.order;
}
