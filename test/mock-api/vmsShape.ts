// A provider whose answers the general reading cannot place: its servers sit under "vms", each with "ident",
// "label_text", "pwr" and "v4". Served from the mock's live state (the actions still work), as a 'raw' fault, so
// any suite can switch it on and off without a server of its own.
import { JSON_HEADERS } from './hostileBodies';
import { type FaultRule, type MockState, type OrderRecord } from './types';

/** The field map that reads this shape. */
export const VMS_FIELD_MAP = {
  pointers: { orderList: '/vms', id: '/ident', name: '/label_text', state: '/pwr', address: '/v4' },
} as const;

function vm(order: OrderRecord): Record<string, unknown> {
  const pwr = order.status === 'running' ? 'on' : order.status === 'stopped' ? 'off' : order.status;
  return { ident: order.id, label_text: order.name, pwr, v4: order.ip };
}

/** GET /api/v1/orders and GET /api/v1/orders/:id in the "vms" shape; everything else as usual. */
export function vmsFault(state: MockState): FaultRule {
  return {
    kind: 'raw',
    method: 'GET',
    path: /^\/api\/v1\/orders(?:\/[^/?]+)?(?:\?.*)?$/,
    body: (rawPath) => {
      const id = /^\/api\/v1\/orders\/([^/?]+)/.exec(rawPath)?.[1];
      const one = id === undefined ? undefined : state.getOrder(decodeURIComponent(id));
      if (id !== undefined && !one) return { status: 404, headers: JSON_HEADERS, body: '{"error":"not_found"}' };
      const body = one ? vm(one) : { vms: state.orders.map(vm) };
      return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(body) };
    },
  };
}
