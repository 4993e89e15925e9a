// The 'ids' dialect, as OVHcloud's API answers: a list is a bare array of ids (servers and bills alike), each server's
// details are at its own path, fields in camelCase (`serverId`, `powerState`), money as `{value, currencyCode, text}`,
// an action answered with a task. There is no single-bill path in this API, so invoices are only ids.
import { type Page, type Rendered } from './shapes';
import { type AccountRecord, type BalanceRecord, type OrderRecord, type OrderStatus } from './types';

const POWER_STATE: Record<OrderStatus, string> = {
  running: 'poweron',
  stopped: 'poweroff',
  suspended: 'poweroff',
  starting: 'starting',
  stopping: 'stopping',
  restarting: 'rebooting',
  reinstalling: 'reinstalling',
};

export function idsOrder(o: OrderRecord): Record<string, unknown> {
  return {
    serverId: o.id,
    displayName: o.name,
    state: o.status === 'suspended' ? 'suspended' : 'ok',
    powerState: POWER_STATE[o.status],
    ip: o.ip,
    commercialRange: o.plan,
    datacenter: o.location,
    os: o.os,
  };
}

/** The ids of a page, bare; the next page (when paginated) only in a Link header, as 'bare' does. */
export function idsList(page: Page<unknown>, ids: readonly unknown[]): Rendered {
  const next = page.paging?.next ?? null;
  return { status: 200, body: ids, headers: next === null ? {} : { Link: `<${next}>; rel="next"` } };
}

export function idsAccount(a: AccountRecord): Rendered {
  const [firstname, ...rest] = a.name.split(' ');
  return { status: 200, body: { nichandle: `ad${a.id}-ovh`, email: a.email, firstname, name: rest.join(' ') } };
}

export function idsBalance(b: BalanceRecord): Rendered {
  const text = `${b.balance.toFixed(2)} €`;
  return { status: 200, body: { balance: { value: b.balance, currencyCode: b.currency, text } } };
}

export function idsActionAccepted(o: OrderRecord): Rendered {
  return { status: 200, body: { taskId: 4_242, function: 'hardReboot', status: 'init', serverId: o.id } };
}
