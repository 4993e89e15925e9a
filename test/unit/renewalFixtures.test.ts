import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Balance, type Order, type OrderRenewal } from '../../src/api/models';
import { normaliseBalance } from '../../src/api/normalise/balance';
import { normaliseInvoiceList } from '../../src/api/normalise/invoice';
import { parseFieldMap } from '../../src/api/normalise/fieldMap';
import { normaliseOrderList } from '../../src/api/normalise/order';
import { AMOUNT_SCALE } from '../../src/api/normalise/money';
import { forecast } from '../../src/billing/forecast';
import { type ForecastRenewal } from '../../src/billing/types';
import { fixedZone } from '../../src/util/calendar';

/**
 * Each provider folder's `expected.json` may say what its orders' renewals read as (`renewals`) and what they
 * forecast to (`forecast`: a time, a zone, a balance, and the renewals in date order with their sums), written by
 * hand from the documented responses (see the fixtures README). Amounts are written as decimal text.
 */

function projectRoot(): string {
  for (const up of ['../../..', '../..']) {
    const root = resolve(__dirname, up);
    if (existsSync(join(root, 'package.json'))) return root;
  }
  return process.cwd();
}

const FIXTURES = join(projectRoot(), 'test', 'fixtures', 'providers');

type Json = Record<string, unknown>;

function load(dir: string, name: string): unknown {
  const file = join(dir, name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : undefined;
}

function money(units: number | undefined): string | undefined {
  return units === undefined ? undefined : (units / AMOUNT_SCALE).toFixed(2);
}

/** A read renewal as the fixtures write it. */
function written(renewal: OrderRenewal | undefined): Json {
  if (!renewal) return {};
  const { date, cycle } = renewal;
  return {
    date: date === undefined ? undefined : date.kind === 'day' ? date.day : new Date(date.at).toISOString(),
    price: money(renewal.price),
    currency: renewal.currency,
    cycle: cycle === undefined ? undefined : cycle.kind === 'every' ? `${cycle.count} ${cycle.unit}` : cycle.kind,
    cycleText: renewal.cycleText,
    autoRenew: renewal.autoRenew,
    priceProblem: renewal.priceProblem,
  };
}

function pick(actual: Json, expected: Json): Json {
  return Object.fromEntries(Object.keys(expected).map((key) => [key, actual[key]]));
}

function line(renewal: ForecastRenewal): Json {
  const { source } = renewal;
  return {
    day: renewal.day,
    ...(source.kind === 'order' ? { order: source.orderId } : { invoice: source.invoiceId }),
    kind: renewal.kind,
    amount: money(renewal.amount),
    currency: renewal.currency,
    covered: renewal.covered,
    shortBy: money(renewal.shortBy),
    projected: renewal.projected,
  };
}

const providers = existsSync(FIXTURES)
  ? readdirSync(FIXTURES)
      .filter((name) => statSync(join(FIXTURES, name)).isDirectory())
      .sort()
  : [];

describe('provider fixtures: renewals and forecasts (unit)', () => {
  const withRenewals = providers.filter((name) => (load(join(FIXTURES, name), 'expected.json') as Json).renewals);
  it('covers the billing panels', () => {
    assert.deepEqual(
      ['billmanager', 'blesta', 'chargebee', 'fossbilling', 'hostbill', 'paymenter', 'whmcs'].filter(
        (name) => !withRenewals.includes(name),
      ),
      [],
    );
  });
  for (const name of withRenewals) {
    describe(name, () => {
      const dir = join(FIXTURES, name);
      const expected = load(dir, 'expected.json') as Json;
      const body = load(dir, 'orders.json');
      const map = expected.fieldMap === undefined ? undefined : parseFieldMap(expected.fieldMap);
      const orders: Order[] = normaliseOrderList(body, undefined, map).orders;

      it('reads each order’s renewal', () => {
        const rows = expected.renewals as Json[];
        assert.equal(orders.length, rows.length, 'count');
        rows.forEach((row, i) => {
          const { id, ...want } = row;
          assert.equal(orders[i]?.id, id, `order ${i}`);
          assert.deepEqual(pick(written(orders[i]?.renewal), want), want, `order ${String(id)}`);
        });
      });

      const plan = expected.forecast as Json | undefined;
      if (!plan) return;
      it(`forecasts from ${String(plan.now)} to the expected dates and sums`, () => {
        const balanceBody = plan.balance ?? load(dir, 'balance.json');
        const balance: Balance | undefined = balanceBody === undefined ? undefined : normaliseBalance(balanceBody);
        const now = Date.parse(plan.now as string);
        const invoicesBody = load(dir, 'invoices.json');
        const invoices = invoicesBody === undefined ? [] : normaliseInvoiceList(invoicesBody, now).invoices;
        const result = forecast(balance, orders, invoices, now, {
          zone: fixedZone(plan.zone as number),
          horizonDays: plan.horizonDays as number,
        });
        const rows = plan.renewals as Json[];
        assert.deepEqual(
          result.renewals.map((renewal, i) => pick(line(renewal), rows[i] ?? {})),
          rows,
        );
        assert.equal(money(result.totals.amount), plan.total);
        assert.equal(result.coverage.kind, plan.coverage);
        if (plan.shortBy !== undefined) assert.equal(money(result.runsOut?.shortBy), plan.shortBy);
        for (const [id, want] of Object.entries((plan.orders ?? {}) as Record<string, Json>)) {
          const outlook = result.orders.get(id);
          assert.deepEqual(pick({ ...outlook }, want), want, `order ${id}`);
        }
      });
    });
  }
});
