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
}

export function hasAnyAddress(order: Pick<SshOrder, 'address' | 'addresses'>): boolean {
  return Boolean(order.address) || (order.addresses?.length ?? 0) > 0;
}

export function sshOffered(order: SshOrder, pending?: OrderAction): boolean {
  return pending === undefined && (order.state === 'running' || order.state === 'unknown') && hasAnyAddress(order);
}
