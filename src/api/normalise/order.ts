import { type Order } from '../models';
import { readAddresses } from './addresses';
import { readId } from './ids';
import { type FieldMap, pointed } from './pointers';
import { type FieldTrace, asText, find, findText, isObject, names, pathOf, textField, words } from './read';
import { readRenewal } from './renewal/readRenewal';
import { readState } from './states';
import { normaliseStateWord } from './stateWords';
import { missingId, unexpectedBody } from './unreadable';
import {
  type Entry,
  type ListKind,
  type ListPage,
  MAX_LIST_ENTRIES,
  entryId,
  readList,
  unwrapObject,
} from './wrappers';
import { optional, serverText } from '../../util/serverText';

export { normaliseStateWord };

export const ORDER_ID_FIELDS = names(
  'id identifier uuid order_id orderId uid _id service_id server_id server_number instance_id vm_id number',
);
/** On billing panels `name` is the product: the user's label and the service's domain come first. */
const NAME_FIELDS = names('label display_name title domain server_name name hostname host_name fqdn host description');
const PLAN_FIELDS = names(
  'plan plan_name product product_name package tariff type flavor size size_slug server_type commercial_type ' +
    'commercial_range pricelist',
);
const PLAN_NAMES = words('name title label slug');
export const ORDER_WRAPPERS = names('data order server service instance droplet result response');
export const ORDER_LIST: ListKind = {
  expected: 'orderList',
  keys: words('orders servers services instances droplets products vms machines'),
  idFields: ORDER_ID_FIELDS,
};
/** A tree item has no use for more, and a huge label costs every repaint. */
const MAX_LABEL = 200;

function cut(text: string): string {
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL)}…` : text;
}

/** The single-order path's id wins: OVHcloud's list id is a name, its details carry a number. */
function orderId(entry: Entry, map?: FieldMap, pathId?: string): { id: string; path: string } {
  if (pathId !== undefined) return { id: pathId, path: 'the request path' };
  const mapped = pointed(map, 'id', entry.raw);
  if (mapped && mapped.value === undefined) throw missingId('order');
  if (mapped) return { id: readId(mapped.value, 'order'), path: `map ${map?.pointers.id ?? ''}` };
  const found = entryId(entry, ORDER_ID_FIELDS, 'order');
  if (!found) throw missingId('order');
  return found;
}

export function normaliseOrder(value: unknown, trace?: FieldTrace, map?: FieldMap, pathId?: string): Order {
  const entry = unwrapObject(value, ORDER_WRAPPERS, ORDER_ID_FIELDS);
  if (!entry) throw unexpectedBody('order', value);
  const { raw, scopes } = entry;
  const { id, path } = orderId(entry, map, pathId);
  trace?.use('id', path);
  const mappedName = asText(pointed(map, 'name', raw)?.value);
  const named = mappedName === undefined ? findText(scopes, NAME_FIELDS) : undefined;
  if (named) trace?.use('name', pathOf(named.hit));
  const name = mappedName ?? named?.text;
  const mappedState = asText(pointed(map, 'state', raw)?.value);
  const read = mappedState === undefined ? readState(scopes) : undefined;
  if (read?.path) trace?.use('state', read.path);
  const statusText = mappedState ?? read?.statusText;
  const mapped = pointed(map, 'address', raw)?.value;
  const fromMap = mapped === undefined ? undefined : readAddresses(scopes, trace, mapped);
  const addresses = fromMap?.address ? fromMap : readAddresses(scopes, trace);
  const planValue = find(scopes, PLAN_FIELDS)?.value;
  const plan = asText(planValue) ?? (isObject(planValue) ? textField(planValue, PLAN_NAMES) : undefined);
  const renewal = readRenewal(scopes, '', trace, map, raw);
  const order: { -readonly [K in keyof Order]: Order[K] } = {
    id,
    label: serverText(name !== undefined ? cut(name) : `#${id}`),
    state: mappedState === undefined ? (read?.state ?? 'unknown') : normaliseStateWord(mappedState),
    statusText: statusText === undefined ? undefined : serverText(cut(statusText)),
    address: addresses.address,
    plan: optional(plan),
    raw,
  };
  if (addresses.addresses?.length) order.addresses = addresses.addresses;
  if (addresses.refused) order.refusedAddresses = addresses.refused;
  if (renewal) order.renewal = renewal;
  return order;
}

export function readOrderPage(body: unknown, limit: number, trace?: FieldTrace, map?: FieldMap): ListPage<Order> {
  return readList(body, ORDER_LIST, (entry, t) => normaliseOrder(entry, t, map), map, trace, limit);
}

export function normaliseOrderList(
  body: unknown,
  trace?: FieldTrace,
  map?: FieldMap,
): { orders: Order[]; ids: string[]; skipped: number } {
  const { items, ids, skipped } = readOrderPage(body, MAX_LIST_ENTRIES, trace, map);
  return { orders: items, ids, skipped };
}
