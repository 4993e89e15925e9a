import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../src/api/errors';
import { normaliseAccount } from '../../src/api/normalise/account';
import { normaliseBalance } from '../../src/api/normalise/balance';
import { normaliseInvoice, normaliseInvoiceList } from '../../src/api/normalise/invoice';
import { normaliseOrder, normaliseOrderList } from '../../src/api/normalise/order';
import { type FieldTrace } from '../../src/api/normalise/read';
import { parseJson } from '../../src/api/json';
import { interpret } from '../../src/api/response';
import { readInvoicePage } from '../../src/api/normalise/invoice';
import { readOrderPage } from '../../src/api/normalise/order';

/**
 * Each call must end within this, whatever the input (inputs stay under ~100 KB): far above the few milliseconds a
 * call takes, so only runaway (super-linear) work reaches it; speed itself is measured by `npm run bench`.
 */
const PER_CALL_MS = 1_000;
const now = Date.parse('2026-01-01T00:00:00Z');

/** A trace that checks what it is told is short, as the caller logs it. */
const trace: FieldTrace = {
  use(role, path) {
    assert.ok(role.length <= 16 && path.length <= 400, `trace ${role} ${path.slice(0, 40)}`);
  },
};

const NORMALISERS: ReadonlyArray<[string, (body: unknown) => unknown]> = [
  ['normaliseOrder', (body) => normaliseOrder(body, trace)],
  ['normaliseOrderList', (body) => normaliseOrderList(body, trace)],
  ['normaliseInvoice', (body) => normaliseInvoice(body, now, trace)],
  ['normaliseInvoiceList', (body) => normaliseInvoiceList(body, now, trace)],
  ['normaliseBalance', (body) => normaliseBalance(body, trace)],
  ['normaliseAccount', (body) => normaliseAccount(body, trace)],
];

/** Every normaliser ends quickly and throws nothing but a badResponse ApiError. */
function feedAll(body: unknown): void {
  for (const [name, normalise] of NORMALISERS) {
    const started = performance.now();
    try {
      normalise(body);
    } catch (error) {
      assert.ok(
        error instanceof ApiError && error.kind === 'badResponse',
        `${name} threw ${String(error).slice(0, 200)}`,
      );
      assert.ok(error.message.length <= 400, `${name}: message of ${error.message.length} characters`);
    }
    const took = performance.now() - started;
    assert.ok(took < PER_CALL_MS, `${name} took ${took.toFixed(1)} ms`);
  }
}

const WRAPPER_KEYS = [
  'data',
  'items',
  'results',
  'result',
  'response',
  'orders',
  'servers',
  'services',
  'instances',
  'invoices',
  'droplets',
  'order',
  'server',
  'invoice',
  'account',
  'attributes',
  'balance',
  'status',
  'networks',
  'public_net',
  'ipv4',
  'ip_addresses',
  'relationships',
  'allocations',
  'products',
  'product',
];

const oddText = fc.constantFrom(
  '\ud800',
  '\udfff',
  'a\ud800b',
  '\udc00\ud800',
  '\u0000',
  '\u202e7',
  '\ufeff 7',
  ' 7',
  '𝟘',
  'e\u0301',
  '',
  ' ',
  '0000-00-00',
  '203.0.113.1/24',
  '2001:db8::/64',
  '$-0.00 USD',
  '1,2,3,4,5',
  'NaN',
  'x'.repeat(300),
);
const oddNumber = fc.oneof(
  fc.constantFrom(2 ** 53 + 2, -(2 ** 53) - 2, 2 ** 64, 1e308, -1e308, Number.MAX_VALUE, 5e-324, -0, 1.5, 0),
  fc.double({ noNaN: true }),
);
const longText = fc
  .tuple(fc.integer({ min: 1_000, max: 90_000 }), fc.constantFrom('a', '1', '.', ' ', '\ud800', '€'))
  .map(([length, char]) => char.repeat(length));
const scalar = fc.oneof(
  oddText,
  oddNumber,
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** `{key:{key:…}}` nested up to 5,000 levels, with a plausible payload at the bottom. */
const deepNest = fc
  .tuple(
    fc.array(fc.constantFrom(...WRAPPER_KEYS), { minLength: 1, maxLength: 3 }),
    fc.integer({ min: 1, max: 5_000 }),
    fc.boolean(),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map(([keys, depth, asArray, leaf]) => {
    let value: unknown = leaf;
    for (let i = 0; i < depth; i++) {
      const key = keys[i % keys.length] as string;
      value = asArray && i % 2 ? [value] : { [key]: value, id: i % 7 === 0 ? i : undefined };
    }
    return value;
  });

/** Thousands of keys, some of them the ones the readers look for. */
const wide = fc
  .tuple(
    fc.integer({ min: 1_000, max: 5_000 }),
    fc.array(fc.constantFrom(...WRAPPER_KEYS, 'id', 'name', 'amount'), { maxLength: 5 }),
    scalar,
  )
  .map(([count, known, value]) => {
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) obj[`Key_${i}-x`] = i % 3 ? value : [{ id: i }];
    for (const key of known) obj[key] = value;
    return obj;
  });

const resourceLike = fc.record(
  {
    type: fc.oneof(fc.string({ maxLength: 10 }), scalar),
    id: scalar,
    attributes: fc.dictionary(
      fc.constantFrom(
        'id',
        'name',
        'status',
        'ip',
        'amount',
        'currency',
        'total',
        'due_date',
        'power_status',
        'public_net',
        'networks',
        'identifier',
        'relationships',
      ),
      fc.oneof(scalar, fc.jsonValue({ maxDepth: 3 })),
    ),
    relationships: fc.jsonValue({ maxDepth: 3 }),
  },
  { requiredKeys: [] },
);

const recordLike = fc.dictionary(
  fc.constantFrom(
    'id',
    'uuid',
    'name',
    'label',
    'status',
    'state',
    'power_status',
    'ip',
    'ipv4',
    'main_ip',
    'networks',
    'balance',
    'amount',
    'currency',
    'invoice_num',
    'duedate',
    'paid',
    'first_name',
  ),
  fc.oneof(scalar, longText, fc.jsonValue({ maxDepth: 2 })),
);

const listOf = <T>(entry: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc
    .tuple(fc.constantFrom(...WRAPPER_KEYS), fc.array(entry, { maxLength: 20 }), fc.boolean())
    .map(([key, list, bare]) => (bare ? list : { [key]: list, meta: { total: list.length } }));

describe('normalisers under generated input (fuzz)', () => {
  it('any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 6, depthSize: 'small' }), feedAll), { numRuns: 400 });
  });

  it('deep nests of wrapper keys', () => {
    fc.assert(fc.property(deepNest, feedAll), { numRuns: 100 });
  });

  it('wide objects with thousands of keys', () => {
    fc.assert(fc.property(wide, feedAll), { numRuns: 40 });
  });

  it('long strings, odd unicode, lone surrogates and numbers beyond 2^53 in record fields', () => {
    fc.assert(fc.property(fc.oneof(recordLike, listOf(recordLike), longText, scalar), feedAll), { numRuns: 300 });
  });

  it('resource-document-like shapes', () => {
    fc.assert(fc.property(fc.oneof(resourceLike, listOf(resourceLike), fc.record({ data: resourceLike })), feedAll), {
      numRuns: 300,
    });
  });

  it('never returns an id that is not exactly a readable path segment', () => {
    fc.assert(
      fc.property(listOf(fc.oneof(recordLike, resourceLike)), (body) => {
        let orders: readonly { id: string }[] = [];
        try {
          orders = normaliseOrderList(body).orders;
        } catch (error) {
          assert.ok(error instanceof ApiError);
        }
        for (const { id } of orders) {
          assert.ok(id.length > 0 && id.length <= 256);
          assert.doesNotThrow(() => encodeURIComponent(id));
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Keys JavaScript treats specially, keys that are not valid text, keys that squash into the readers' names. */
const hostileKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'hasOwnProperty',
    '__defineGetter__',
    'then',
    'length',
    '\ud800',
    '\udfff',
    'a\ud800',
    '\udc00\ud800',
    '',
    ' ',
    'ID',
    'I_D',
    'id\u0000',
    'Status',
    'ip',
    'IP-Address',
    'attributes',
    'data',
    'type',
    'orders',
    '0',
    '-1',
    'x'.repeat(400),
  ),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({ maxLength: 20 }),
);

/** Values as raw JSON text: numbers JSON.stringify never writes (beyond 2^53, 400 digits, 1e999), lone surrogates. */
const hostileValueText = fc.oneof(
  fc.constantFrom(
    '"\\ud800"',
    '"a\\udc00b"',
    '1e999',
    '-1e999',
    '9007199254740993',
    '-9007199254740993',
    '1'.repeat(400),
    '0.1e-400',
    '"Infinity"',
    'true',
    'null',
    '[]',
    '{}',
    '"__proto__"',
  ),
  scalar.map((value) => JSON.stringify(value) ?? 'null'),
);

/** An object of hostile keys and values, nested a few levels, written as a server would send it. */
const hostileObjectText: fc.Arbitrary<string> = fc.letrec<{ object: string }>((tie) => ({
  object: fc
    .array(fc.tuple(hostileKey, fc.oneof({ maxDepth: 3 }, hostileValueText, tie('object'))), { maxLength: 8 })
    .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`),
})).object;

const hostileBody = fc.oneof(
  hostileObjectText,
  fc.array(hostileObjectText, { maxLength: 6 }).map((list) => `[${list.join(',')}]`),
  fc
    .tuple(fc.constantFrom(...WRAPPER_KEYS), fc.array(hostileObjectText, { maxLength: 6 }))
    .map(([key, list]) => `{${JSON.stringify(key)}:[${list.join(',')}]}`),
);

describe('any key or value a server can send (fuzz)', () => {
  const context = { method: 'GET', path: '/api/v1/orders', key: 'hk_live_0123456789abcdef' };
  const answer = (status: number, body: string) => ({
    status,
    body,
    headers: { 'content-type': 'application/json' },
    bytes: body.length,
  });

  afterEach(() => {
    // Nothing read may reach the prototype every object shares.
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTOTYPE_KEYS);
    assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
  });

  it('is read from JSON, and through every normaliser, with nothing thrown but a badResponse', () => {
    fc.assert(
      fc.property(hostileBody, (text) => {
        feedAll(parseJson(text));
      }),
      { numRuns: 500 },
    );
  });

  it('goes through the whole reading of an answer, lists read by pages included, with nothing thrown but an ApiError', async () => {
    await fc.assert(
      fc.asyncProperty(hostileBody, fc.constantFrom(200, 404, 500), async (text, status) => {
        let json: unknown;
        try {
          json = await interpret(answer(status, text), context, now);
        } catch (error) {
          assert.ok(error instanceof ApiError, String(error));
          assert.ok(status !== 200 || error.kind === 'badResponse' || error.kind === 'unauthorized', error.kind);
          return;
        }
        for (const read of [() => readOrderPage(json, 100, trace), () => readInvoicePage(json, now, 100, trace)]) {
          try {
            read();
          } catch (error) {
            assert.ok(error instanceof ApiError && error.kind === 'badResponse', String(error));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
