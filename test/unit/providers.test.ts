import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ApiClient } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { normaliseAccount } from '../../src/api/normalise/account';
import { normaliseBalance } from '../../src/api/normalise/balance';
import { type FieldMap, parseFieldMap } from '../../src/api/normalise/fieldMap';
import { normaliseInvoiceList } from '../../src/api/normalise/invoice';
import { normaliseOrder, normaliseOrderList } from '../../src/api/normalise/order';
import { type ScriptedAnswer, ScriptedServer, json } from './helpers/scriptedServer';

/** The project root: this file runs compiled from `out/test/unit/`, and from `test/unit/` under ts-node. */
function projectRoot(): string {
  for (const up of ['../../..', '../..']) {
    const root = resolve(__dirname, up);
    if (existsSync(join(root, 'package.json'))) return root;
  }
  return process.cwd();
}

const FIXTURES = join(projectRoot(), 'test', 'fixtures', 'providers');

function load(dir: string, name: string): unknown {
  const file = join(dir, name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : undefined;
}

/** Only the fields expected.json names are compared: a fixture says what it knows, no more. */
function pick(actual: object, expected: Record<string, unknown>): Record<string, unknown> {
  const source = actual as Record<string, unknown>;
  return Object.fromEntries(Object.keys(expected).map((key) => [key, source[key]]));
}

type Expected = Record<string, unknown>;

function checkList(actual: readonly object[], expected: unknown, what: string): void {
  assert.ok(Array.isArray(expected), `${what} in expected.json is a list`);
  const rows = expected as Expected[];
  assert.equal(actual.length, rows.length, `${what}: count`);
  rows.forEach((row, i) => assert.deepEqual(pick(actual[i] as object, row), row, `${what}[${i}]`));
}

/** The single order as read at its path: its id is the path's, so only the rest is compared. */
function withoutId(expected: unknown): Expected {
  const { id: _id, ...rest } = expected as Expected;
  return rest;
}

const providers = existsSync(FIXTURES)
  ? readdirSync(FIXTURES)
      .filter((name) => statSync(join(FIXTURES, name)).isDirectory())
      .sort()
  : [];

/**
 * The expected values are what the general rules read, or (`fieldMap`) what the account's field map reads where the
 * payload itself cannot say (amounts in cents under a plain name). Where a provider's own meaning differs and nothing
 * says so, the fixtures README records it: no per-provider code stands in for the payload.
 */
describe('provider fixtures', () => {
  for (const name of providers) {
    const dir = join(FIXTURES, name);
    const expected = (load(dir, 'expected.json') ?? {}) as Expected;
    const map: FieldMap | undefined = expected.fieldMap === undefined ? undefined : parseFieldMap(expected.fieldMap);
    const files = {
      orders: load(dir, 'orders.json'),
      order: load(dir, 'order.json'),
      account: load(dir, 'account.json'),
      balance: load(dir, 'balance.json'),
      invoices: load(dir, 'invoices.json'),
    };

    describe(`${name}: the readers`, () => {
      if (files.orders !== undefined && (expected.orders !== undefined || expected.orderIds !== undefined)) {
        it('reads the order list', () => {
          const read = normaliseOrderList(files.orders, undefined, map);
          if (expected.orderIds !== undefined) {
            assert.deepEqual(read.ids, expected.orderIds);
            assert.deepEqual(read.orders, []);
          } else {
            checkList(read.orders, expected.orders, 'orders');
          }
        });
      }
      if (files.order !== undefined && expected.order !== undefined) {
        it('reads one order, as the answer at its path', () => {
          const want = withoutId(expected.order);
          assert.deepEqual(pick(normaliseOrder(files.order, undefined, map, 'the-id'), want), want);
        });
      }
      if (files.account !== undefined && expected.account !== undefined) {
        it('reads the account', () => {
          const want = expected.account as Expected;
          assert.deepEqual(pick(normaliseAccount(files.account), want), want);
        });
      }
      if (files.balance !== undefined && expected.balance !== undefined) {
        it('reads the balance', () => {
          const want = expected.balance as Expected;
          assert.deepEqual(pick(normaliseBalance(files.balance, undefined, map), want), want);
        });
      }
      if (files.invoices !== undefined && expected.invoices !== undefined) {
        it('reads the invoices', () => {
          const read = normaliseInvoiceList(files.invoices, Date.now(), undefined, map);
          checkList(read.invoices, expected.invoices, 'invoices');
          if (expected.invoiceIds !== undefined) assert.deepEqual(read.ids, expected.invoiceIds);
        });
      }
    });

    describe(`${name}: through the API client, served at this API's paths`, () => {
      let server: ScriptedServer;
      let client: ApiClient;
      beforeEach(async () => {
        const answer = (body: unknown): ScriptedAnswer => (body === undefined ? json({}, 404) : json(body));
        server = await ScriptedServer.start(({ url }) => {
          const path = url.split('?')[0] ?? '';
          if (path === '/api/v1/orders') return answer(files.orders);
          if (path.startsWith('/api/v1/orders/')) return answer(files.order);
          if (path === '/api/v1/me') return answer(files.account);
          if (path === '/api/v1/balance') return answer(files.balance);
          if (path === '/api/v1/invoices') return answer(files.invoices);
          return json({ error: 'not_found' }, 404);
        });
        client = new ApiClient({
          baseUrl: server.url,
          getKey: () => 'fixture-key-0123456789',
          userAgent: 'fixtures',
          limiters: new LimiterRegistry(61_000),
          retry: { maxAttempts: 1 },
          maxPages: 1,
          fieldMap: map,
        });
      });
      afterEach(async () => {
        await client.dispose();
        await server.close();
      });

      if (files.orders !== undefined && (expected.orders !== undefined || expected.orderIds !== undefined)) {
        it('lists the orders (bare ids apart)', async () => {
          const listing = await client.listOrders();
          if (expected.orderIds !== undefined) assert.deepEqual(listing.ids, expected.orderIds);
          else checkList(listing.items, expected.orders, 'orders');
        });
      }
      if (files.order !== undefined && expected.order !== undefined) {
        it('reads one order at its path, under the id asked for', async () => {
          const order = await client.getOrder('the-id');
          assert.equal(order.id, 'the-id');
          const want = withoutId(expected.order);
          assert.deepEqual(pick(order, want), want);
        });
      }
      if (files.balance !== undefined && expected.balance !== undefined) {
        it('reads the balance', async () => {
          const want = expected.balance as Expected;
          assert.deepEqual(pick(await client.getBalance(), want), want);
        });
      }
      if (files.invoices !== undefined && expected.invoices !== undefined) {
        it('lists the invoices', async () => {
          const listing = await client.listInvoices();
          checkList(listing.items, expected.invoices, 'invoices');
          if (expected.invoiceIds !== undefined) assert.deepEqual(listing.ids, expected.invoiceIds);
        });
      }
    });
  }
});
