import { ApiError } from '../errors';
import { type Order, type OrderState, type RawObject } from '../models';
import { asText, describe, field, findList, isObject, readEach, textField, unwrapObject } from './read';

const ID_FIELDS = ['id', 'order_id', 'orderId', 'uuid', 'uid', '_id', 'service_id', 'server_id', 'vm_id', 'number'];
const NAME_FIELDS = ['name', 'label', 'title', 'display_name', 'hostname', 'host_name', 'server_name', 'domain',
  'fqdn', 'host', 'description'];
const STATE_FIELDS = ['status', 'state', 'power_status', 'power_state', 'powerstate', 'server_status', 'vm_status',
  'server_state', 'vm_state', 'power', 'condition', 'lifecycle'];
const ADDRESS_FIELDS = ['ip', 'ipv4', 'ip_address', 'main_ip', 'primary_ip', 'public_ip', 'address', 'ipv6',
  'hostname', 'fqdn'];
const PLAN_FIELDS = ['plan', 'plan_name', 'product', 'product_name', 'package', 'tariff', 'type', 'flavor', 'size'];

/**
 * Server vocabularies for the UI's five states. Words are compared after lower-casing and turning separators into
 * `_`, so "Power Off", "power-off" and "POWER_OFF" are the same word.
 */
const STATE_WORDS: Readonly<Record<Exclude<OrderState, 'unknown'>, readonly string[]>> = {
  running: ['running', 'active', 'online', 'started', 'up', 'on', 'powered_on', 'power_on', 'poweron', 'ready',
    'live', 'enabled', 'ok', 'healthy', 'available'],
  stopped: ['stopped', 'offline', 'off', 'down', 'halted', 'shutoff', 'shut_off', 'shutdown', 'shut_down',
    'powered_off', 'power_off', 'poweroff', 'inactive', 'paused', 'stop', 'exited', 'sleeping'],
  busy: ['starting', 'stopping', 'restarting', 'rebooting', 'reinstalling', 'installing', 'provisioning', 'pending',
    'creating', 'building', 'deploying', 'migrating', 'processing', 'queued', 'in_progress', 'booting',
    'shutting_down', 'powering_on', 'powering_off', 'resizing', 'rebuilding', 'updating', 'initializing', 'busy',
    'transitioning', 'setup', 'reloading'],
  suspended: ['suspended', 'blocked', 'locked', 'frozen', 'disabled', 'expired', 'overdue', 'banned', 'terminated',
    'cancelled', 'canceled', 'deleted'],
};
const WORD_TO_STATE = new Map<string, OrderState>(
  Object.entries(STATE_WORDS).flatMap(([state, words]) => words.map((word) => [word, state as OrderState])),
);

export function normaliseStateWord(word: string): OrderState {
  const key = word.trim().toLowerCase().replace(/[\s\-.]+/g, '_');
  return WORD_TO_STATE.get(key) ?? WORD_TO_STATE.get(key.replace(/_/g, '')) ?? 'unknown';
}

/** The status word, which may be a string, an object such as `{ name: "running" }`, or a boolean flag. */
function readState(obj: RawObject): { state: OrderState; statusText?: string } {
  const value = field(obj, STATE_FIELDS);
  const text = asText(value) ?? (isObject(value) ? textField(value, ['name', 'value', 'code', 'label', 'status', 'state']) : undefined);
  if (text !== undefined) return { state: normaliseStateWord(text), statusText: text };
  const flag = field(obj, ['running', 'is_running', 'online', 'is_online', 'powered_on', 'active']);
  if (typeof flag === 'boolean') return { state: flag ? 'running' : 'stopped', statusText: flag ? 'running' : 'stopped' };
  return { state: 'unknown' };
}

export function normaliseOrder(value: unknown): Order {
  const obj = unwrapObject(value, ['data', 'order', 'server', 'service', 'result'], ID_FIELDS);
  if (!obj) throw new ApiError('badResponse', `Expected an order object, got ${describe(value)}.`);
  const id = textField(obj, ID_FIELDS);
  if (id === undefined) throw new ApiError('badResponse', 'Expected an order with an id field (id, order_id, uuid…).');
  const { state, statusText } = readState(obj);
  const plan = field(obj, PLAN_FIELDS);
  return {
    id,
    label: textField(obj, NAME_FIELDS) ?? `#${id}`,
    state,
    statusText,
    address: textField(obj, ADDRESS_FIELDS),
    plan: asText(plan) ?? (isObject(plan) ? textField(plan, ['name', 'title', 'label']) : undefined),
    raw: obj,
  };
}

/** Reads a list of orders; entries that are not orders are skipped and counted, not fatal. */
export function normaliseOrderList(body: unknown): { orders: Order[]; skipped: number } {
  const list = findList(body, ['orders', 'servers', 'services']);
  if (!list) {
    throw new ApiError('badResponse', `Expected a list of orders (an array, or one under "data"/"orders"), got ${describe(body)}.`);
  }
  const { items, skipped } = readEach(list, normaliseOrder);
  return { orders: items, skipped };
}
