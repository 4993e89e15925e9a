import { ApiError, type FieldMapProblem } from '../errors';
import { type Balance, type Invoice, type Order } from '../models';
import { normaliseBalance } from './balance';
import { normaliseInvoiceList } from './invoice';
import { normaliseOrder, normaliseOrderList } from './order';
import {
  FIELD_MAP_KEYS,
  type FieldMap,
  type FieldMapKey,
  MAX_POINTER_LENGTH,
  MAX_POINTER_SEGMENTS,
  pointerSegments,
  resolvePointer,
} from './pointers';

export { type FieldMap, type FieldMapKey, FIELD_MAP_KEYS, resolvePointer } from './pointers';

function invalid(problem: FieldMapProblem, key?: string): ApiError {
  const shown = key === undefined ? undefined : key.slice(0, 40);
  return new ApiError('badConfig', `The field map is not valid (${problem}${shown ? `: ${shown}` : ''}).`, {
    reason: { rule: 'fieldMapInvalid', problem, key: shown },
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A map as stored, held to its rules: anything else throws a `fieldMapInvalid` ApiError and nothing is read. */
export function parseFieldMap(value: unknown): FieldMap {
  if (!isPlainObject(value)) throw invalid('notObject');
  let members = 0;
  for (const key in value) {
    if (++members > 2) throw invalid('tooMany');
    if (key !== 'pointers' && key !== 'amountScale') throw invalid('unknownKey', key);
  }
  const { pointers, amountScale } = value;
  if (amountScale !== undefined && amountScale !== 'units' && amountScale !== 'minor') throw invalid('badScale');
  if (!isPlainObject(pointers)) throw invalid('notObject', 'pointers');
  let count = 0;
  for (const _ in pointers) if (++count > FIELD_MAP_KEYS.length) throw invalid('tooMany');
  const read: Partial<Record<FieldMapKey, string>> = {};
  for (const key in pointers) {
    if (!(FIELD_MAP_KEYS as readonly string[]).includes(key)) throw invalid('unknownKey', key);
    const pointer = pointers[key];
    if (typeof pointer !== 'string') throw invalid('notString', key);
    if (pointer.length > MAX_POINTER_LENGTH) throw invalid('tooLong', key);
    if (pointer !== '' && pointer.slice(1).split('/').length > MAX_POINTER_SEGMENTS) throw invalid('tooDeep', key);
    if (!pointerSegments(pointer)) throw invalid('badPointer', key);
    read[key as FieldMapKey] = pointer;
  }
  return Object.freeze({
    pointers: Object.freeze(read),
    ...(amountScale === undefined ? {} : { amountScale }),
  });
}

/** What one answer read as under the map: its value, or why it could not be read; a list's unreadable entries counted. */
export interface PreviewPart<T> {
  readonly value?: T;
  readonly error?: ApiError;
  readonly skipped?: number;
}

export type PreviewAnswer = 'orders' | 'order' | 'balance' | 'invoices';

/** A mapped pointer that names nothing in an answer (in `entries` of the entries looked at, for entry pointers). */
export interface FieldMapMiss {
  readonly key: FieldMapKey;
  readonly answer: PreviewAnswer;
  readonly entries?: number;
}

export interface FieldMapPreview {
  readonly orders?: PreviewPart<readonly Order[]>;
  readonly order?: PreviewPart<Order>;
  readonly balance?: PreviewPart<Balance>;
  readonly invoices?: PreviewPart<readonly Invoice[]>;
  readonly misses: readonly FieldMapMiss[];
}

/** Entries of a list shown in a preview, and looked at for misses. */
export const PREVIEW_ENTRIES = 5;

const ORDER_KEYS: readonly FieldMapKey[] = [
  'id',
  'name',
  'state',
  'address',
  'renewalDate',
  'renewalPrice',
  'renewalCycle',
  'renews',
];
const INVOICE_KEYS: readonly FieldMapKey[] = ['invoiceNumber', 'invoiceAmount'];

function attempt<T>(read: () => T): { value?: T; error?: ApiError } {
  try {
    return { value: read() };
  } catch (error) {
    return { error: error instanceof ApiError ? error : new ApiError('badResponse', String(error)) };
  }
}

function entriesOf(map: FieldMap, key: 'orderList' | 'invoiceList', body: unknown): readonly unknown[] {
  const pointer = map.pointers[key];
  const list = pointer === undefined ? body : resolvePointer(body, pointer);
  if (Array.isArray(list)) return list.slice(0, PREVIEW_ENTRIES);
  if (typeof list !== 'object' || list === null) return [];
  // Unmapped: the first array of the answer's first two levels, as a stand-in for where the reader found the list.
  for (const value of Object.values(list as Record<string, unknown>)) {
    if (Array.isArray(value)) return value.slice(0, PREVIEW_ENTRIES);
    if (typeof value === 'object' && value !== null) {
      const inner = Object.values(value as Record<string, unknown>).find(Array.isArray) as unknown[] | undefined;
      if (inner) return inner.slice(0, PREVIEW_ENTRIES);
    }
  }
  return [];
}

function missesIn(
  map: FieldMap,
  keys: readonly FieldMapKey[],
  entries: readonly unknown[],
  answer: PreviewAnswer,
  out: FieldMapMiss[],
): void {
  for (const key of keys) {
    const pointer = map.pointers[key];
    if (pointer === undefined || !entries.length) continue;
    const missed = entries.filter((entry) => resolvePointer(entry, pointer) === undefined).length;
    if (missed) out.push({ key, answer, entries: missed });
  }
}

function rootMiss(map: FieldMap, key: FieldMapKey, body: unknown, answer: PreviewAnswer, out: FieldMapMiss[]): void {
  const pointer = map.pointers[key];
  if (pointer !== undefined && resolvePointer(body, pointer) === undefined) out.push({ key, answer });
}

/** What `map` reads from the last answers (the first few entries of lists), and which of its pointers name nothing. */
export function preview(
  map: FieldMap,
  answers: { orders?: unknown; order?: unknown; balance?: unknown; invoices?: unknown },
): FieldMapPreview {
  const misses: FieldMapMiss[] = [];
  const result: {
    -readonly [K in keyof FieldMapPreview]: FieldMapPreview[K];
  } = { misses };
  if (answers.orders !== undefined) {
    rootMiss(map, 'orderList', answers.orders, 'orders', misses);
    const read = attempt(() => normaliseOrderList(answers.orders, undefined, map));
    result.orders = read.value
      ? { value: read.value.orders.slice(0, PREVIEW_ENTRIES), skipped: read.value.skipped }
      : { error: read.error };
    missesIn(map, ORDER_KEYS, entriesOf(map, 'orderList', answers.orders), 'orders', misses);
  }
  if (answers.order !== undefined) {
    result.order = attempt(() => normaliseOrder(answers.order, undefined, map));
  }
  if (answers.balance !== undefined) {
    for (const key of ['balanceAmount', 'balanceCurrency'] as const) {
      rootMiss(map, key, answers.balance, 'balance', misses);
    }
    result.balance = attempt(() => normaliseBalance(answers.balance, undefined, map));
  }
  if (answers.invoices !== undefined) {
    rootMiss(map, 'invoiceList', answers.invoices, 'invoices', misses);
    const read = attempt(() => normaliseInvoiceList(answers.invoices, Date.now(), undefined, map));
    result.invoices = read.value
      ? { value: read.value.invoices.slice(0, PREVIEW_ENTRIES), skipped: read.value.skipped }
      : { error: read.error };
    missesIn(map, INVOICE_KEYS, entriesOf(map, 'invoiceList', answers.invoices), 'invoices', misses);
  }
  return result;
}
