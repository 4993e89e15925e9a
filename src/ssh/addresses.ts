export interface Addressed {
  readonly address?: string;
  readonly addresses?: readonly string[];
}

export function addressesOf(order: Addressed): string[] {
  const list = order.addresses?.length ? [...order.addresses] : order.address ? [order.address] : [];
  if (order.address && list[0] !== order.address && list.includes(order.address)) {
    list.splice(list.indexOf(order.address), 1);
    list.unshift(order.address);
  }
  return list;
}
