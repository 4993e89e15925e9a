import { ApiError } from '../errors';
import { type Order } from '../models';
import { readAddresses } from './addresses';
import { findId } from './ids';
import { type FieldTrace, asText, describe, isObject, joinPath, lookup, prefixed, readEach, textField, textHit } from './read';
import { readState } from './states';
import { findList, unwrapObject } from './wrappers';

export { normaliseStateWord } from './states';

/** `id` first, then a stable identifier, then a uuid, then names that are ids of this kind of thing. */
const ID_FIELDS = ['id', 'identifier', 'uuid', 'order_id', 'orderId', 'uid', '_id', 'service_id', 'server_id',
  'instance_id', 'vm_id', 'number'];
/**
 * A label the user chose, then the service's own domain (on billing panels `name` is the product bought, "Starter"),
 * then the name, then host names.
 */
const NAME_FIELDS = ['label', 'display_name', 'title', 'domain', 'server_name', 'name', 'hostname', 'host_name',
  'fqdn', 'host', 'description'];
const PLAN_FIELDS = ['plan', 'plan_name', 'product', 'product_name', 'package', 'tariff', 'type', 'flavor', 'size',
  'size_slug', 'server_type', 'commercial_type'];
const WRAPPERS = ['data', 'order', 'server', 'service', 'instance', 'droplet', 'result', 'response'];
const LIST_KEYS = ['orders', 'servers', 'services', 'instances', 'droplets', 'products', 'vms', 'machines'];
/** Display text is cut here: a tree item has no use for more, and a huge one costs every repaint. */
const MAX_LABEL = 200;

function cut(text: string): string {
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL)}…` : text;
}

export function normaliseOrder(value: unknown, trace?: FieldTrace): Order {
  const entry = unwrapObject(value, WRAPPERS, ID_FIELDS);
  if (!entry) throw new ApiError('badResponse', `Expected an order object, got ${describe(value)}.`);
  const { fields, base } = entry;
  const found = findId(fields, ID_FIELDS, 'order', entry.envelope);
  if (!found) throw new ApiError('badResponse', 'Expected an order with an id field (id, order_id, uuid…).');
  const { id } = found;
  trace?.use('id', found.own ? found.hit.key : joinPath(base, found.hit.key));
  const name = textHit(fields, NAME_FIELDS);
  if (name) trace?.use('name', joinPath(base, name.key));
  const { state, statusText } = readState(fields, base, trace);
  const { address, addresses } = readAddresses(fields, base, trace);
  const plan = lookup(fields, PLAN_FIELDS)?.value;
  return {
    id,
    label: name ? cut(name.text) : `#${id}`,
    state,
    statusText: statusText === undefined ? undefined : cut(statusText),
    address,
    ...(addresses && addresses.length ? { addresses } : {}),
    plan: asText(plan) ?? (isObject(plan) ? textField(plan, ['name', 'title', 'label', 'slug']) : undefined),
    raw: entry.raw,
  };
}

/** Reads a list of orders; entries that are not orders are skipped and counted, not fatal. */
export function normaliseOrderList(body: unknown, trace?: FieldTrace): { orders: Order[]; skipped: number } {
  const found = findList(body, LIST_KEYS, ID_FIELDS);
  if (!found) {
    throw new ApiError('badResponse', `Expected a list of orders (an array, or one under "data"/"orders"), got ${describe(body)}.`);
  }
  trace?.use('list', found.path || '[]');
  const itemTrace = trace && prefixed(trace, `${found.path}[]`);
  const { items, skipped } = readEach(found.list, normaliseOrder, itemTrace);
  return { orders: items, skipped };
}
