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

function reachable(order: SshOrder, pending?: OrderAction): boolean {
  return pending === undefined && (order.state === 'running' || order.state === 'unknown');
}

export function sshOffered(order: SshOrder, pending?: OrderAction): boolean {
  return reachable(order, pending) && hasAnyAddress(order);
}

// Also listed when every address was refused, so picking it says why instead of the server silently missing.
export function sshListed(order: SshOrder, pending?: OrderAction): boolean {
  return reachable(order, pending) && (hasAnyAddress(order) || (order.refusedAddresses?.length ?? 0) > 0);
}
