/** The servers a folder may be bound to, across every account, and the one form in which hosts are compared. */
import { type Order, type OrderState } from '../api/models';
import { checkHost } from '../ssh/hostCheck';

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
      name: order.label,
      addresses: addresses.slice(0, MAX_ADDRESSES),
      state: order.state,
    };
  });
}

/**
 * A host as it is compared: a name in lower case, IPv6 in its canonical short form, IPv4 as written (checkHost refuses
 * the notations that would hide another address). Undefined for anything checkHost refuses, so nothing odd can match.
 */
export function hostKey(text: unknown): string | undefined {
  const check = checkHost(text);
  if (!check.ok) return undefined;
  switch (check.kind) {
    case 'ipv4':
      return check.host;
    case 'name':
      return check.host.toLowerCase();
    case 'ipv6':
      return canonicalIPv6(check.host);
  }
}

function canonicalIPv6(address: string): string | undefined {
  try {
    // The URL parser writes an IPv6 host in the RFC 5952 form: lower case, zeros compressed once.
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}
