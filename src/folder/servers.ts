/** The servers a folder may be bound to, across every account. */
import { type Order, type OrderState } from '../api/models';
import { plain } from '../util/serverText';

export interface FolderServer {
  readonly accountId: string;
  /** Exactly as the API sent it. */
  readonly orderId: string;
  /** The order's label. */
  readonly name: string;
  readonly addresses: readonly string[];
  readonly state?: OrderState;
}

/** Most addresses looked at per server: the normalisers keep sixteen. */
const MAX_ADDRESSES = 16;

export function folderServersOf(accountId: string, orders: readonly Order[]): FolderServer[] {
  return orders.map((order) => {
    const addresses = order.addresses?.length ? order.addresses : order.address ? [order.address] : [];
    return {
      accountId,
      orderId: order.id,
      // For matching (a host name equal to a remote's host), never for display.
      name: plain(order.label),
      addresses: addresses.slice(0, MAX_ADDRESSES),
      state: order.state,
    };
  });
}
