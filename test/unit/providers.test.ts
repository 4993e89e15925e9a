import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { normaliseAccount } from '../../src/api/normalise/account';
import { normaliseBalance } from '../../src/api/normalise/balance';
import { normaliseInvoiceList } from '../../src/api/normalise/invoice';
import { normaliseOrder, normaliseOrderList } from '../../src/api/normalise/order';

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

/**
 * The expected values are what the general rules read. Where a provider's own meaning differs and nothing in the
 * payload says so (which sign of a balance means owed, credits in cents under a plain name), the fixtures README
 * records it: no per-provider code stands in for the payload.
 */
function check(_provider: string, _part: string, title: string, body: () => void): void {
  it(title, body);
}

function checkList(actual: readonly object[], expected: unknown, what: string): void {
  assert.ok(Array.isArray(expected), `${what} in expected.json is a list`);
  const rows = expected as Expected[];
  assert.equal(actual.length, rows.length, `${what}: count`);
  rows.forEach((row, i) => assert.deepEqual(pick(actual[i] as object, row), row, `${what}[${i}]`));
}

const providers = existsSync(FIXTURES)
  ? readdirSync(FIXTURES)
      .filter((name) => statSync(join(FIXTURES, name)).isDirectory())
      .sort()
  : [];

describe('provider fixtures', () => {
  if (providers.length === 0) {
    it('has no provider fixtures to read yet', () => undefined);
  }
  for (const name of providers) {
    describe(name, () => {
      const dir = join(FIXTURES, name);
      const expected = (load(dir, 'expected.json') ?? {}) as Expected;
      const orders = load(dir, 'orders.json');
      const order = load(dir, 'order.json');
      const account = load(dir, 'account.json');
      const balance = load(dir, 'balance.json');
      const invoices = load(dir, 'invoices.json');

      if (orders !== undefined && expected.orders !== undefined) {
        check(name, 'orders', 'reads the order list', () =>
          checkList(normaliseOrderList(orders).orders, expected.orders, 'orders'),
        );
      }
      if (order !== undefined && expected.order !== undefined) {
        check(name, 'order', 'reads one order', () => {
          const want = expected.order as Expected;
          assert.deepEqual(pick(normaliseOrder(order), want), want);
        });
      }
      if (account !== undefined && expected.account !== undefined) {
        check(name, 'account', 'reads the account', () => {
          const want = expected.account as Expected;
          assert.deepEqual(pick(normaliseAccount(account), want), want);
        });
      }
      if (balance !== undefined && expected.balance !== undefined) {
        check(name, 'balance', 'reads the balance', () => {
          const want = expected.balance as Expected;
          assert.deepEqual(pick(normaliseBalance(balance), want), want);
        });
      }
      if (invoices !== undefined && expected.invoices !== undefined) {
        check(name, 'invoices', 'reads the invoices', () =>
          checkList(normaliseInvoiceList(invoices).invoices, expected.invoices, 'invoices'),
        );
      }
    });
  }
});
