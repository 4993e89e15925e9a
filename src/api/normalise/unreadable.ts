import { ApiError, type BodyShape, type ErrorReason, type ExpectedBody } from '../errors';
import { isObject } from './read';
import { plain, serverText, type ServerText } from '../../util/serverText';

const EXPECTED: Readonly<Record<ExpectedBody, string>> = {
  account: 'an account object',
  balance: 'a balance (a number, or an object with "balance"/"amount")',
  order: 'an order object',
  orderList: 'a list of orders (an array, or one under "data"/"orders")',
  invoice: 'an invoice object',
  invoiceList: 'a list of invoices (an array, or one under "data"/"invoices")',
};
const SHAPES: Readonly<Record<Exclude<BodyShape['type'], 'object' | 'value'>, string>> = {
  empty: 'an empty body',
  null: 'null',
  array: 'an array',
  emptyObject: 'an empty object',
};

function shapeOf(value: unknown): BodyShape {
  if (value === undefined || value === null) return { type: value === null ? 'null' : 'empty' };
  if (Array.isArray(value)) return { type: 'array' };
  if (!isObject(value)) return { type: 'value', typeName: typeof value };
  const keys: ServerText[] = [];
  for (const key in value) {
    if (keys.length === 4) break;
    keys.push(serverText(key.slice(0, 30)));
  }
  return keys.length ? { type: 'object', keys } : { type: 'emptyObject' };
}

function shapeText(shape: BodyShape): string {
  if (shape.type === 'object') return `an object with ${shape.keys.map((k) => `"${plain(k)}"`).join(', ')}`;
  return shape.type === 'value' ? `a ${shape.typeName}` : SHAPES[shape.type];
}

export function unexpectedBody(expected: ExpectedBody, value: unknown): ApiError {
  const got = shapeOf(value);
  return new ApiError('badResponse', `Expected ${EXPECTED[expected]}, got ${shapeText(got)}.`, {
    reason: { rule: 'unexpectedBody', expected, got },
  });
}

export function missingId(what: 'order' | 'invoice'): ApiError {
  const message =
    what === 'order'
      ? 'Expected an order with an id field (id, order_id, uuid…).'
      : 'Expected an invoice with an id or number.';
  return new ApiError('badResponse', message, { reason: { rule: 'missingId', what } });
}

/** A key name may be a secret echoed back. */
export function maskReason(reason: ErrorReason | undefined, mask: (text: string) => string): ErrorReason | undefined {
  if (reason?.rule !== 'unexpectedBody' || reason.got.type !== 'object') return reason;
  return { ...reason, got: { type: 'object', keys: reason.got.keys.map((key) => serverText(mask(plain(key)))) } };
}
