import { type Order, type RawObject } from '../models';
import { AddressScan, MAX_ADDRESS_KEYS, addressBits } from './addressKeys';
import { readAddresses, readAddressesFrom } from './addresses';
import { type FieldMap, pointed } from './pointers';
import { type Entry } from './resource';
import { readMappedRenewal } from './renewal/readRenewal';
import { readId } from './ids';
import { NameHits, NameTable } from './keys';
import { type FieldTrace, asText, isObject, joinPath, present, squash, textField } from './read';
import { type Role, StateScan, decideState, stateRole } from './states';
import { type ListPage, MAX_LIST_ENTRIES, readList, unwrapObject } from './wrappers';
import { missingId, unexpectedBody } from './unreadable';
import { readRenewal } from './renewal/readRenewal';
import { optional, serverText } from '../../util/serverText';

import { normaliseStateWord } from './stateWords';

export { normaliseStateWord };

/** `id` first, then a stable identifier, then a uuid, then names that are ids of this kind of thing. */
const ID_FIELDS = [
  'id',
  'identifier',
  'uuid',
  'order_id',
  'orderId',
  'uid',
  '_id',
  'service_id',
  'server_id',
  'instance_id',
  'vm_id',
  'number',
];
/**
 * A label the user chose, then the service's own domain (on billing panels `name` is the product bought, "Starter"),
 * then the name, then host names.
 */
const NAME_FIELDS = [
  'label',
  'display_name',
  'title',
  'domain',
  'server_name',
  'name',
  'hostname',
  'host_name',
  'fqdn',
  'host',
  'description',
];
const PLAN_FIELDS = [
  'plan',
  'plan_name',
  'product',
  'product_name',
  'package',
  'tariff',
  'type',
  'flavor',
  'size',
  'size_slug',
  'server_type',
  'commercial_type',
  'pricelist',
];
const WRAPPERS = ['data', 'order', 'server', 'service', 'instance', 'droplet', 'result', 'response'];
const LIST_KEYS = ['orders', 'servers', 'services', 'instances', 'droplets', 'products', 'vms', 'machines'];
/** Display text is cut here: a tree item has no use for more, and a huge one costs every repaint. */
const MAX_LABEL = 200;

function cut(text: string): string {
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL)}…` : text;
}

const ID_TABLE = new NameTable(ID_FIELDS);
const NAME_TABLE = new NameTable(NAME_FIELDS);
const PLAN_TABLE = new NameTable(PLAN_FIELDS);
/** Reused by every order: `normaliseOrder` runs to its end (or throws) before the next one starts. */
const idHits = new NameHits(ID_TABLE);
const nameHits = new NameHits(NAME_TABLE);
const planHits = new NameHits(PLAN_TABLE);
const states = new StateScan();

/** Everything the order readers want to know about one key name, worked out once per name. */
interface KeyInfo {
  readonly idSlot: number;
  readonly idGroup: number;
  readonly nameSlot: number;
  readonly nameGroup: number;
  readonly planSlot: number;
  readonly planGroup: number;
  readonly state: Role | undefined;
  readonly address: number;
  /** False for the many keys no reader wants (`os`, `cpu`, `created_at`…). */
  readonly wanted: boolean;
}

const UNWANTED: KeyInfo = {
  idSlot: -1,
  idGroup: -1,
  nameSlot: -1,
  nameGroup: -1,
  planSlot: -1,
  planGroup: -1,
  state: undefined,
  address: 0,
  wanted: false,
};

function classify(key: string): KeyInfo {
  const squashed = squash(key);
  const info: KeyInfo = {
    idSlot: ID_TABLE.exactOf(key),
    idGroup: ID_TABLE.groupOf(squashed),
    nameSlot: NAME_TABLE.exactOf(key),
    nameGroup: NAME_TABLE.groupOf(squashed),
    planSlot: PLAN_TABLE.exactOf(key),
    planGroup: PLAN_TABLE.groupOf(squashed),
    state: stateRole(squashed),
    address: addressBits(squashed),
    wanted: true,
  };
  const wanted =
    info.idSlot >= 0 ||
    info.idGroup >= 0 ||
    info.nameSlot >= 0 ||
    info.nameGroup >= 0 ||
    info.planSlot >= 0 ||
    info.planGroup >= 0 ||
    info.state !== undefined ||
    info.address !== 0;
  return wanted ? info : UNWANTED;
}

/** Key names repeat from order to order. Server keys are hostile: long ones and any past the cap are not kept. */
const keyInfos = new Map<string, KeyInfo>();
const MAX_KEY_INFOS = 10_000;
const MAX_KEPT_KEY = 64;

function keyInfo(key: string): KeyInfo {
  let info = keyInfos.get(key);
  if (info === undefined) {
    info = classify(key);
    if (keyInfos.size < MAX_KEY_INFOS && key.length <= MAX_KEPT_KEY) keyInfos.set(key, info);
  }
  return info;
}

/**
 * The key names of the last order read, by position, with what they are: orders of one list share their keys in the
 * same order, so most keys are found here by one comparison instead of a map lookup. Bounded like `keyInfos`.
 */
const lastKeys: string[] = [];
const lastInfos: KeyInfo[] = [];
const MAX_LAST_KEYS = 64;

function keyInfoAt(position: number, key: string): KeyInfo {
  if (lastKeys[position] === key) return lastInfos[position] as KeyInfo;
  const info = keyInfo(key);
  if (position < MAX_LAST_KEYS && position <= lastKeys.length && key.length <= MAX_KEPT_KEY) {
    lastKeys[position] = key;
    lastInfos[position] = info;
  }
  return info;
}

const ENVELOPE_ID = ['id'];

/**
 * The first id field PRESENT decides (as `findId`), whatever it holds: a value that is no id refuses the entry
 * (`readId` throws) rather than falling back to another field, which may name another order. A resource document's
 * own id is looked at first.
 */
function orderId(
  fields: RawObject,
  envelope: RawObject | undefined,
  mapped?: { value: unknown },
): { id: string; key: string; own: boolean } {
  if (mapped?.value !== undefined) return { id: readId(mapped.value, 'order'), key: 'map', own: true };
  if (mapped) throw missingId('order');
  const own = envelope && present(envelope, ENVELOPE_ID);
  if (own) return { id: readId(own.value, 'order'), key: own.key, own: true };
  for (let i = 0; i < ID_FIELDS.length; i++) {
    const key = idHits.presentKeyOf(fields, i);
    if (key !== undefined) return { id: readId(fields[key], 'order'), key, own: false };
  }
  throw missingId('order');
}

export function normaliseOrder(value: unknown, trace?: FieldTrace, map?: FieldMap): Order {
  const entry = unwrapObject(value, WRAPPERS, ID_FIELDS);
  if (!entry) throw unexpectedBody('order', value);
  if (map) return applyMap(readOrder(entry, trace, pointed(map, 'id', entry.raw)), entry.raw, map);
  return readOrder(entry, trace);
}

/** A mapped field wins over the general reading; a mapped id that names nothing makes the entry unreadable. */
function applyMap(order: Order, raw: RawObject, map: FieldMap): Order {
  const name = asText(pointed(map, 'name', raw)?.value);
  const stateValue = pointed(map, 'state', raw)?.value;
  const stateText = asText(stateValue);
  const address = asText(pointed(map, 'address', raw)?.value);
  const mapped: { -readonly [K in keyof Order]: Order[K] } = { ...order };
  if (name !== undefined) mapped.label = serverText(cut(name));
  if (stateText !== undefined) {
    mapped.state = normaliseStateWord(stateText);
    mapped.statusText = serverText(cut(stateText));
  }
  if (address !== undefined) {
    const read = readAddresses({ address }, '');
    if (read.address) {
      mapped.address = read.address;
      mapped.addresses = read.addresses;
    }
  }
  const renewal = readMappedRenewal(raw, map, order.renewal);
  if (renewal) mapped.renewal = renewal;
  return mapped;
}

function readOrder(entry: Entry, trace?: FieldTrace, mappedId?: { value: unknown }): Order {
  const { fields, base } = entry;
  // One pass over the keys feeds every reader: ids, names, plans, state fields and the top of the address walk.
  idHits.reset();
  nameHits.reset();
  planHits.reset();
  states.reset();
  const addresses = new AddressScan(undefined, false);
  let scanned = 0;
  for (const key in fields) {
    const info = keyInfoAt(scanned++, key);
    if (!info.wanted) continue;
    const field = fields[key];
    if (info.address !== 0 && scanned <= MAX_ADDRESS_KEYS) addresses.note(key, info.address, field);
    idHits.note(info.idSlot, info.idGroup, key, field);
    nameHits.note(info.nameSlot, info.nameGroup, key, field);
    planHits.note(info.planSlot, info.planGroup, key, field);
    if (info.state && field !== undefined && field !== null) states.note(info.state, key, field);
  }
  const found = orderId(fields, entry.envelope, mappedId);
  const { id } = found;
  trace?.use('id', found.own ? found.key : joinPath(base, found.key));
  let nameKey: string | undefined;
  let nameText: string | undefined;
  for (let i = 0; i < NAME_FIELDS.length && nameText === undefined; i++) {
    nameKey = nameHits.keyOf(fields, i);
    if (nameKey !== undefined) nameText = asText(fields[nameKey]);
  }
  if (nameText !== undefined) trace?.use('name', joinPath(base, nameKey as string));
  const { state, statusText } = decideState(states, base, trace);
  const { address, addresses: all, refused } = readAddressesFrom(fields, addresses, base, trace);
  const planKey = planHits.lookupKey(fields);
  const plan = planKey === undefined ? undefined : fields[planKey];
  const label = serverText(nameText !== undefined ? cut(nameText) : `#${id}`);
  const planText = optional(
    asText(plan) ?? (isObject(plan) ? textField(plan, ['name', 'title', 'label', 'slug']) : undefined),
  );
  const shownStatus = statusText === undefined ? undefined : serverText(cut(statusText));
  const renewal = readRenewal(fields, base, trace);
  const { raw } = entry;
  if (!refused) {
    // Four literals rather than a spread: a spread gives every order a map of its own, and everything that reads
    // thousands of orders (the tree, the filter, the forecast) then reads each one slowly.
    if (all && all.length) {
      return renewal
        ? { id, label, state, statusText: shownStatus, address, addresses: all, plan: planText, raw, renewal }
        : { id, label, state, statusText: shownStatus, address, addresses: all, plan: planText, raw };
    }
    return renewal
      ? { id, label, state, statusText: shownStatus, address, plan: planText, raw, renewal }
      : { id, label, state, statusText: shownStatus, address, plan: planText, raw };
  }
  const order: Order =
    all && all.length
      ? { id, label, state, statusText: shownStatus, address, addresses: all, plan: planText, raw }
      : { id, label, state, statusText: shownStatus, address, plan: planText, raw };
  return renewal ? { ...order, refusedAddresses: refused, renewal } : { ...order, refusedAddresses: refused };
}

/** `normaliseOrderList` for one page of a list read over pages: at most `limit` orders read. */
export function readOrderPage(body: unknown, limit: number, trace?: FieldTrace, map?: FieldMap): ListPage<Order> {
  const read = (entry: unknown, t?: FieldTrace): Order => normaliseOrder(entry, t, map);
  return readList(body, LIST_KEYS, ID_FIELDS, 'orderList', read, trace, limit, map);
}

/** Reads a list of orders; entries that are not orders are skipped and counted, not fatal. */
export function normaliseOrderList(
  body: unknown,
  trace?: FieldTrace,
  map?: FieldMap,
): { orders: Order[]; skipped: number } {
  const { items, skipped } = readOrderPage(body, MAX_LIST_ENTRIES, trace, map);
  return { orders: items, skipped };
}
