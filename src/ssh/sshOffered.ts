/**
 * The one rule for where SSH (Connect via SSH, Open in Remote-SSH) is offered, shared by the tree's menu and the
 * palette: a server that is running, or whose state is unknown, with an address, and no action of ours under way. A
 * stopped, suspended or busy (reinstalling…) server has no SSH to connect to. Copy Address is not SSH: it stays
 * offered wherever there is an address.
 */
import { type OrderAction, type OrderState } from '../api/models';

export interface SshOrder {
  readonly state: OrderState;
  readonly address?: string;
  readonly addresses?: readonly string[];
  readonly refusedAddresses?: readonly unknown[];
}

export function hasAnyAddress(order: Pick<SshOrder, 'address' | 'addresses'>): boolean {
  return Boolean(order.address) || (order.addresses?.length ?? 0) > 0;
}

/** Running or of unknown state, with no action of ours under way: where SSH could connect, given an address. */
function reachable(order: SshOrder, pending?: OrderAction): boolean {
  return pending === undefined && (order.state === 'running' || order.state === 'unknown');
}

export function sshOffered(order: SshOrder, pending?: OrderAction): boolean {
  return reachable(order, pending) && hasAnyAddress(order);
}

/**
 * Where SSH from the palette lists a server: where it is offered, and where it would be but for addresses that were
 * all refused, so picking it says which value was refused and why instead of the server silently missing.
 */
export function sshListed(order: SshOrder, pending?: OrderAction): boolean {
  return reachable(order, pending) && (hasAnyAddress(order) || (order.refusedAddresses?.length ?? 0) > 0);
}
