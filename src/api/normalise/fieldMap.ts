import { ApiError, type FieldMapProblem } from '../errors';
import { type Balance, type Invoice, type Order } from '../models';
import { normaliseBalance } from './balance';
import { readId } from './ids';
import { INVOICE_LIST, readInvoicePage } from './invoice';
import { ORDER_ID_FIELDS, ORDER_LIST, ORDER_WRAPPERS, normaliseOrder, readOrderPage } from './order';
import {
  FIELD_MAP_KEYS,
  type FieldMap,
  type FieldMapKey,
  MAX_POINTER_LENGTH,
  MAX_POINTER_SEGMENTS,
  pointerSegments,
  resolvePointer,
} from './pointers';
import { isObject } from './read';
import { type ListKind, type ListPage, MAX_LIST_ENTRIES, locateList, unwrapObject } from './wrappers';

export { type FieldMap, type FieldMapKey, FIELD_MAP_KEYS, resolvePointer } from './pointers';

function invalid(problem: FieldMapProblem, key?: string): ApiError {
  const shown = key?.slice(0, 40);
  return new ApiError('badConfig', `The field map is not valid (${problem}${shown ? `: ${shown}` : ''}).`, {
    reason: { rule: 'fieldMapInvalid', problem, key: shown },
  });
}

export function parseFieldMap(value: unknown): FieldMap {
  if (!isObject(value)) throw invalid('notObject');
  let members = 0;
  for (const key in value) {
    if (++members > 2) throw invalid('tooMany');
    if (key !== 'pointers' && key !== 'amountScale') throw invalid('unknownKey', key);
  }
  const { pointers, amountScale } = value;
  if (amountScale !== undefined && amountScale !== 'units' && amountScale !== 'minor') throw invalid('badScale');
  if (!isObject(pointers)) throw invalid('notObject', 'pointers');
  let count = 0;
  for (const _ in pointers) if (++count > FIELD_MAP_KEYS.length) throw invalid('tooMany');
  const read: Partial<Record<FieldMapKey, string>> = {};
  for (const key in pointers) {
    if (!(FIELD_MAP_KEYS as readonly string[]).includes(key)) throw invalid('unknownKey', key);
    const pointer = pointers[key];
    if (typeof pointer !== 'string') throw invalid('notString', key);
    if (pointer.length > MAX_POINTER_LENGTH) throw invalid('tooLong', key);
    if (pointer.split('/').length - 1 > MAX_POINTER_SEGMENTS) throw invalid('tooDeep', key);
    if (!pointerSegments(pointer)) throw invalid('badPointer', key);
    read[key as FieldMapKey] = pointer;
  }
  return Object.freeze({ pointers: Object.freeze(read), ...(amountScale && { amountScale }) });
}

export interface PreviewPart<T> {
  readonly value?: T;
  readonly error?: ApiError;
  readonly skipped?: number;
  readonly ids?: readonly string[];
}

type PreviewAnswer = 'orders' | 'order' | 'balance' | 'invoices';

interface FieldMapMiss {
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

const PREVIEW_ENTRIES = 5;

/** Those relative to one order entry. */
const ORDER_KEYS = FIELD_MAP_KEYS.filter((key) => !/^(?:orderList|balance|invoice)/.test(key));
const INVOICE_KEYS: readonly FieldMapKey[] = ['invoiceNumber', 'invoiceAmount'];

function attempt<T>(read: () => T): { value?: T; error?: ApiError } {
  try {
    return { value: read() };
  } catch (error) {
    return { error: error instanceof ApiError ? error : new ApiError('badResponse', String(error)) };
  }
}

/** Bare ids have no fields for a pointer to miss. */
function entriesOf(map: FieldMap, kind: ListKind, body: unknown): readonly unknown[] {
  const list = locateList(body, kind, map)?.list ?? [];
  return list.slice(0, PREVIEW_ENTRIES).filter((entry) => typeof entry === 'object');
}

export function preview(
  map: FieldMap,
  answers: { orders?: unknown; order?: unknown; orderId?: string; balance?: unknown; invoices?: unknown },
): FieldMapPreview {
  const { orders, order, balance, invoices } = answers;
  const misses: FieldMapMiss[] = [];
  const note = (
    answer: PreviewAnswer,
    keys: readonly FieldMapKey[],
    docs: readonly unknown[],
    perEntry = false,
  ): void => {
    for (const key of keys) {
      const pointer = map.pointers[key];
      const missed =
        pointer === undefined ? 0 : docs.filter((doc) => resolvePointer(doc, pointer) === undefined).length;
      if (missed) misses.push(perEntry ? { key, answer, entries: missed } : { key, answer });
    }
  };
  const part = <T>(read: () => ListPage<T>): PreviewPart<readonly T[]> => {
    const { value, error } = attempt(read);
    if (!value) return { error };
    const { items, ids, skipped } = value;
    return { value: items.slice(0, PREVIEW_ENTRIES), skipped, ids: ids.slice(0, PREVIEW_ENTRIES) };
  };
  const result: { -readonly [K in keyof FieldMapPreview]: FieldMapPreview[K] } = { misses };
  if (orders !== undefined) {
    note('orders', ['orderList'], [orders]);
    note('orders', ORDER_KEYS, entriesOf(map, ORDER_LIST, orders), true);
    result.orders = part(() => readOrderPage(orders, MAX_LIST_ENTRIES, undefined, map));
  }
  if (order !== undefined) {
    // Its id is the one asked for, whatever the map says.
    const entry = unwrapObject(order, ORDER_WRAPPERS, ORDER_ID_FIELDS);
    note('order', ORDER_KEYS.slice(1), entry ? [entry.raw] : []);
    result.order = attempt(() => normaliseOrder(order, undefined, map, answers.orderId ?? ''));
  }
  if (balance !== undefined) {
    note('balance', ['balanceAmount', 'balanceCurrency'], [balance]);
    result.balance = attempt(() => normaliseBalance(balance, undefined, map));
  }
  if (invoices !== undefined) {
    note('invoices', ['invoiceList'], [invoices]);
    note('invoices', INVOICE_KEYS, entriesOf(map, INVOICE_LIST, invoices), true);
    result.invoices = part(() => readInvoicePage(invoices, Date.now(), MAX_LIST_ENTRIES, undefined, map));
  }
  return result;
}

/** Each entry of an orders answer and the id this map reads in it; an entry it finds no id in is left out. */
export function orderIdsOf(map: FieldMap | undefined): (answer: unknown) => Map<unknown, string> {
  return (answer) => {
    const ids = new Map<unknown, string>();
    for (const entry of locateList(answer, ORDER_LIST, map)?.list ?? []) {
      const id = attempt(() => (isObject(entry) ? normaliseOrder(entry, undefined, map).id : readId(entry, 'order')));
      if (id.value !== undefined) ids.set(entry, id.value);
    }
    return ids;
  };
}
