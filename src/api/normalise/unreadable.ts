/**
 * The failures of a reader of server data: a body of another shape than expected, an entry without an id. Each is an
 * ApiError with a reason for the UI to word and the same facts in English for the log.
 */

import { ApiError, type BodyShape, type ErrorReason, type ExpectedBody } from '../errors';
import { isObject } from './read';
import { plain, serverText, type ServerText } from '../../util/serverText';

/** The English of each expectation, for the log. */
const EXPECTED: Readonly<Record<ExpectedBody, string>> = {
  account: 'an account object',
  balance: 'a balance (a number, or an object with "balance"/"amount")',
  order: 'an order object',
  orderList: 'a list of orders (an array, or one under "data"/"orders")',
  invoice: 'an invoice object',
  invoiceList: 'a list of invoices (an array, or one under "data"/"invoices")',
};

/** What a value was, in a few facts: at most four keys of an object, each cut to 30 characters. */
export function shapeOf(value: unknown): BodyShape {
  if (value === undefined) return { type: 'empty' };
  if (value === null) return { type: 'null' };
  if (Array.isArray(value)) return { type: 'array' };
  if (isObject(value)) {
    const keys: ServerText[] = [];
    for (const key in value) {
      if (keys.length === 4) break;
      keys.push(serverText(key.slice(0, 30)));
    }
    return keys.length ? { type: 'object', keys } : { type: 'emptyObject' };
  }
  return { type: 'value', typeName: typeof value };
}

/** A shape in English, for the log. */
function shapeText(shape: BodyShape): string {
  switch (shape.type) {
    case 'empty':
      return 'an empty body';
    case 'null':
      return 'null';
    case 'array':
      return 'an array';
    case 'emptyObject':
      return 'an empty object';
    case 'object':
      return `an object with ${shape.keys.map((k) => `"${plain(k)}"`).join(', ')}`;
    case 'value':
      return `a ${shape.typeName}`;
  }
}

/** The body (or an entry of it) is not what `expected` names. */
export function unexpectedBody(expected: ExpectedBody, value: unknown): ApiError {
  const got = shapeOf(value);
  return new ApiError('badResponse', `Expected ${EXPECTED[expected]}, got ${shapeText(got)}.`, {
    reason: { rule: 'unexpectedBody', expected, got },
  });
}

/** An entry that has no id: it cannot be acted on or told apart, so it is not read. */
export function missingId(what: 'order' | 'invoice'): ApiError {
  const message =
    what === 'order'
      ? 'Expected an order with an id field (id, order_id, uuid…).'
      : 'Expected an invoice with an id or number.';
  return new ApiError('badResponse', message, { reason: { rule: 'missingId', what } });
}

/** The reason with its server-sent key names masked like the message: a key name may be a secret echoed back. */
export function maskReason(reason: ErrorReason | undefined, mask: (text: string) => string): ErrorReason | undefined {
  if (reason?.rule !== 'unexpectedBody' || reason.got.type !== 'object') return reason;
  return { ...reason, got: { type: 'object', keys: reason.got.keys.map((key) => serverText(mask(plain(key)))) } };
}
