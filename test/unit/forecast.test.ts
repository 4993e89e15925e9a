import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { type Balance, type Invoice, type Order, type OrderRenewal, type RenewalCycle } from '../../src/api/models';
import { normaliseOrder } from '../../src/api/normalise/order';
import { AMOUNT_SCALE } from '../../src/api/normalise/money';
import { type ForecastOptions, forecast } from '../../src/billing/forecast';
import { type Forecast, type ForecastRenewal } from '../../src/billing/types';
import {
  DAY_MS,
  LAST_DAY,
  type ZoneOffset,
  addMonths,
  civilFromDays,
  dayText,
  daysFromCivil,
  fixedZone,
  parseDayText,
  startOfDay,
} from '../../src/util/calendar';
import { serverText } from '../../src/util/serverText';

const UTC = fixedZone(0);
/** Zones the table runs under: a day without a time is the same day in all of them. */
const ZONES: ReadonlyArray<[string, ZoneOffset]> = [
  ['UTC', UTC],
  ['UTC-10', fixedZone(-600)],
  ['UTC+5:30', fixedZone(330)],
  ['UTC+12', fixedZone(720)],
];
const u = (major: number): number => Math.round(major * AMOUNT_SCALE);
const eur = (major: number): Balance => ({ amount: major, currency: 'EUR', raw: {} });
type Every = Extract<RenewalCycle, { kind: 'every' }>;
const every = (unit: Every['unit'], count = 1): Every => ({ kind: 'every', unit, count });
const monthly = every('month');
/** 2026-11-24, 11:00 UTC: the same calendar day in every zone of the table. */
const NOW = Date.UTC(2026, 10, 24, 11);

function order(id: string, renewal: OrderRenewal, extra: Partial<Order> = {}): Order {
  return { id, label: serverText(`srv-${id}`), state: 'running', raw: {}, renewal, ...extra };
}

function due(day: string, price: number, more: Partial<OrderRenewal> = {}): OrderRenewal {
  return { date: { kind: 'day', day }, price: u(price), currency: 'EUR', cycle: monthly, ...more };
}

function run(
  balance: Balance | undefined,
  orders: readonly Order[],
  options: ForecastOptions = {},
  invoices: readonly Invoice[] = [],
  now = NOW,
): Forecast {
  return forecast(balance, orders, invoices, now, { zone: UTC, ...options });
}

function rows(f: Forecast): string[] {
  return f.renewals.map((r) => {
    const who = r.source.kind === 'order' ? r.source.orderId : `invoice ${r.source.invoiceId}`;
    const money = r.amount === undefined ? '?' : (r.amount / AMOUNT_SCALE).toFixed(2);
    const state =
      r.covered === undefined ? r.kind : r.covered ? 'covered' : `short ${(r.shortBy as number) / AMOUNT_SCALE}`;
    return `${r.day} ${who} ${money} ${state}`;
  });
}

describe('billing forecast (unit)', () => {
  describe('calendar', () => {
    it('turns days into dates and back over the whole range (property)', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: LAST_DAY }), (days) => {
          const { year, month, day } = civilFromDays(days);
          assert.equal(daysFromCivil(year, month, day), days);
          assert.equal(dayText(days), new Date(days * DAY_MS).toISOString().slice(0, 10));
          assert.equal(parseDayText(dayText(days)), days);
        }),
      );
    });

    it('adds months anchored on the original day: month ends and leap years', () => {
      const add = (day: string, months: number, anchor?: number): string | undefined => {
        const moved = addMonths(parseDayText(day) as number, months, anchor);
        return moved === undefined ? undefined : dayText(moved);
      };
      assert.equal(add('2027-01-31', 1), '2027-02-28');
      assert.equal(add('2028-01-31', 1), '2028-02-29');
      assert.equal(add('2027-01-31', 2), '2027-03-31');
      assert.equal(add('2027-02-28', 1, 31), '2027-03-31', 'anchored on the 31st, not on the 28th');
      assert.equal(add('2026-11-30', 3), '2027-02-28');
      assert.equal(add('2028-02-29', 12), '2029-02-28');
      assert.equal(add('2028-02-29', 48), '2032-02-29');
      assert.equal(add('2026-12-31', -1), '2026-11-30');
      assert.equal(add('9999-12-01', 1), undefined);
    });

    it('projects cycles from a day and from an instant', () => {
      const days = (renewal: OrderRenewal, zone = UTC, now = NOW): string[] =>
        forecast(undefined, [order('x', renewal)], [], now, { zone, horizonDays: 366 }).renewals.map((r) => r.day);
      const on = (day: string, cycle?: RenewalCycle): OrderRenewal => ({ date: { kind: 'day', day }, cycle });
      assert.deepEqual(days(on('2027-01-31', monthly)).slice(0, 4), [
        '2027-01-31',
        '2027-02-28',
        '2027-03-31',
        '2027-04-30',
      ]);
      assert.deepEqual(days(on('2027-01-31', every('month', 3))).slice(0, 3), [
        '2027-01-31',
        '2027-04-30',
        '2027-07-31',
      ]);
      assert.deepEqual(days(on('2027-01-31', every('week', 2))).slice(0, 3), [
        '2027-01-31',
        '2027-02-14',
        '2027-02-28',
      ]);
      assert.deepEqual(days(on('2027-01-31')), ['2027-01-31'], 'no cycle: only the date sent');
      assert.deepEqual(days(on('2028-02-29', every('year')), UTC, Date.UTC(2028, 2, 15)), ['2028-02-29', '2029-02-28']);
      // 31 Jan 23:30 UTC, monthly: stepped in UTC, then placed on the user's calendar.
      const late: OrderRenewal = { date: { kind: 'instant', at: Date.UTC(2027, 0, 31, 23, 30) }, cycle: monthly };
      assert.deepEqual(days(late).slice(0, 3), ['2027-01-31', '2027-02-28', '2027-03-31']);
      assert.deepEqual(days(late, fixedZone(60)).slice(0, 3), ['2027-02-01', '2027-03-01', '2027-04-01']);
      assert.deepEqual(days(late, fixedZone(-300)).slice(0, 3), ['2027-01-31', '2027-02-28', '2027-03-31']);
      assert.deepEqual(days(on(dayText(LAST_DAY), every('day')), UTC, (LAST_DAY - 1) * DAY_MS), ['9999-12-31']);
    });

    it('starts a day at local midnight, on a day the clock changes too', () => {
      // A zone one hour ahead until 2026-10-25 01:00 UTC, UTC after it.
      const change = Date.UTC(2026, 9, 25, 1);
      const zone: ZoneOffset = (ms) => (ms < change ? 60 : 0);
      assert.equal(startOfDay(parseDayText('2026-10-24') as number, zone), Date.UTC(2026, 9, 23, 23));
      assert.equal(startOfDay(parseDayText('2026-10-26') as number, zone), Date.UTC(2026, 9, 26));
    });
  });

  for (const [name, zone] of ZONES) {
    describe(`renewals and coverage, in ${name}`, () => {
      const opts = { zone };

      it('runs the balance down through the renewals in date order', () => {
        const f = run(eur(42.5), [order('a', due('2026-12-06', 12.9)), order('b', due('2026-11-25', 5.9))], opts);
        assert.equal(f.today, '2026-11-24');
        assert.equal(f.horizonEnd, '2027-02-22');
        assert.deepEqual(rows(f), [
          '2026-11-25 b 5.90 covered',
          '2026-12-06 a 12.90 covered',
          '2026-12-25 b 5.90 covered',
          '2027-01-06 a 12.90 covered',
          '2027-01-25 b 5.90 short 1',
          '2027-02-06 a 12.90 short 13.9',
        ]);
        assert.deepEqual(f.coverage, {
          kind: 'short',
          first: f.renewals[4],
          shortBy: u(1),
          coveredCount: 4,
          coveredAmount: u(37.6),
          coveredThrough: '2027-01-06',
        });
        assert.equal(f.runsOut, f.renewals[4]);
        assert.deepEqual(f.totals, { charges: 6, amount: u(56.4), notSummed: 0, otherCurrencies: [], expiring: 0 });
        assert.deepEqual(
          f.renewals.map((r) => [r.daysAway, r.projected, r.balanceAfter]),
          [
            [1, false, u(36.6)],
            [12, false, u(23.7)],
            [31, true, u(17.8)],
            [43, true, u(4.9)],
            [62, true, u(-1)],
            [74, true, u(-13.9)],
          ],
        );
      });

      it('says what the balance covers: "until 15 Jan (4 renewals, €38.72)"', () => {
        const orders = [order('a', due('2026-12-15', 9.675, { cycle: monthly }))];
        const f = run(eur(40), orders, { ...opts, horizonDays: 52 });
        assert.deepEqual(f.coverage, {
          kind: 'covered',
          through: '2027-01-15',
          count: 2,
          amount: u(19.36),
          left: u(20.64),
        });
        const g = run(eur(38.72), [order('a', due('2026-12-15', 9.675, { cycle: every('week', 1) }))], {
          ...opts,
          horizonDays: 21 + 22,
        });
        assert.equal(g.coverage.kind, 'covered');
        assert.ok(g.coverage.kind === 'covered' && g.coverage.count === 4 && g.coverage.amount === u(38.72));
      });

      it('says by how much it is short: "does not cover web-01’s renewal on 3 Dec (€12.90): short by €5.90"', () => {
        const f = run(eur(7), [order('web-01', due('2026-12-03', 12.9))], { ...opts, horizonDays: 20 });
        assert.equal(f.coverage.kind, 'short');
        assert.ok(f.coverage.kind === 'short');
        assert.deepEqual(
          [f.coverage.first.day, f.coverage.first.source, f.coverage.first.amount, f.coverage.shortBy],
          ['2026-12-03', { kind: 'order', orderId: 'web-01', label: 'srv-web-01' }, u(12.9), u(5.9)],
        );
        assert.equal(f.coverage.coveredCount, 0);
        assert.equal('coveredThrough' in f.coverage, false);
      });

      it('counts a negative balance as owed', () => {
        const f = run(eur(-10), [order('a', due('2026-11-30', 5))], { ...opts, horizonDays: 10 });
        assert.deepEqual(rows(f), ['2026-11-30 a 5.00 short 15']);
        assert.equal(f.balance, u(-10));
      });

      it('lists another currency and an unknown price without summing them, and says so', () => {
        const f = run(
          eur(100),
          [
            order('eur', due('2026-12-01', 10)),
            order('usd', due('2026-12-02', 10, { currency: 'USD' })),
            order('gbp', due('2026-12-03', 10, { currency: 'GBP' })),
            order('none', due('2026-12-04', 10, { currency: undefined })),
            order('x', { date: { kind: 'day', day: '2026-12-05' }, cycle: monthly, priceProblem: 'ambiguous' }),
          ],
          { ...opts, horizonDays: 20 },
        );
        assert.deepEqual(rows(f), [
          '2026-12-01 eur 10.00 covered',
          '2026-12-02 usd 10.00 otherCurrency',
          '2026-12-03 gbp 10.00 otherCurrency',
          '2026-12-04 none 10.00 covered',
          '2026-12-05 x ? unpriced',
        ]);
        assert.deepEqual(f.totals, {
          charges: 2,
          amount: u(20),
          notSummed: 3,
          otherCurrencies: ['GBP', 'USD'],
          expiring: 0,
        });
        assert.deepEqual([f.renewals[3]?.currency, f.renewals[3]?.currencyAssumed], ['EUR', true]);
        assert.equal(f.renewals[4]?.priceProblem, 'ambiguous');
        assert.equal(f.orders.get('x')?.warn, false, 'an unknown price is never warned about');
      });

      it('takes the currency every price shares when the balance has none, and sums nothing when they differ', () => {
        const plain: Balance = { amount: 20, raw: {} };
        const same = run(plain, [order('a', due('2026-12-01', 10)), order('b', due('2026-12-02', 15))], {
          ...opts,
          horizonDays: 20,
        });
        assert.deepEqual([same.currency, same.currencyAssumed, same.coverage.kind], ['EUR', true, 'short']);
        const mixed = run(
          plain,
          [order('a', due('2026-12-01', 10)), order('b', due('2026-12-02', 15, { currency: 'USD' }))],
          {
            ...opts,
            horizonDays: 20,
          },
        );
        assert.deepEqual([mixed.currency, mixed.coverage.kind, mixed.totals.notSummed], [undefined, 'nothingDue', 2]);
      });

      it('reads amounts written with commas through the order reader', () => {
        const orders = [
          normaliseOrder({ id: 1, nextduedate: '2026-12-01', recurringamount: '1.234,50', billingcycle: 'Annually' }),
          normaliseOrder({ id: 2, nextduedate: '2026-12-02', recurringamount: '1,234.50', billingcycle: 'Annually' }),
          normaliseOrder({ id: 3, nextduedate: '2026-12-03', recurringamount: '12,90', billingcycle: 'Annually' }),
          normaliseOrder({ id: 4, nextduedate: '2026-12-04', recurringamount: '1,234', billingcycle: 'Annually' }),
        ];
        const f = run(eur(5000), orders, { ...opts, horizonDays: 20 });
        assert.deepEqual(rows(f), [
          '2026-12-01 1 1234.50 covered',
          '2026-12-02 2 1234.50 covered',
          '2026-12-03 3 12.90 covered',
          '2026-12-04 4 ? unpriced',
        ]);
      });

      it('forecasts only the next renewal of an order whose cycle it cannot read (term: 1200, "1001 months")', () => {
        const orders = [
          normaliseOrder({ id: 1, nextduedate: '2026-12-01', recurringamount: '5.00', term: 1200, period: 'month' }),
          normaliseOrder({ id: 2, nextduedate: '2026-12-02', recurringamount: '5.00', billingcycle: '1001 months' }),
        ];
        assert.deepEqual(rows(run(eur(100), orders, opts)), ['2026-12-01 1 5.00 covered', '2026-12-02 2 5.00 covered']);
      });

      it('rounds each amount to its currency’s decimals before summing, float noise included', () => {
        const noisy = normaliseOrder({ id: 'n', nextduedate: '2026-12-02', recurringamount: 3.3000000000000003 });
        const bill: Invoice = {
          id: '7',
          dueDate: serverText('2026-12-03'),
          amount: 3.3000000000000003,
          currency: 'EUR',
          status: 'unpaid',
          raw: {},
        };
        const f = run(eur(100), [order('a', due('2026-12-01', 9.675, { cycle: undefined })), noisy], opts, [bill]);
        assert.deepEqual(rows(f).slice(0, 3), [
          '2026-12-01 a 9.68 covered',
          '2026-12-02 n 3.30 covered',
          '2026-12-03 invoice 7 3.30 covered',
        ]);
        assert.deepEqual([f.totals.amount, f.totals.notSummed], [u(16.28), 0]);
        const yen = run({ amount: 5000, currency: 'JPY', raw: {} }, [
          order('y', due('2026-12-01', 1234.5, { currency: 'JPY', cycle: undefined })),
        ]);
        assert.deepEqual([yen.renewals[0]?.amount, yen.renewals[0]?.balanceAfter], [u(1235), u(3765)]);
      });

      it('never charges an order that does not renew: it is listed as expiring, once', () => {
        const f = run(eur(1), [order('gone', due('2026-11-30', 50, { autoRenew: false }))], opts);
        assert.deepEqual(rows(f), ['2026-11-30 gone 50.00 expires']);
        assert.deepEqual([f.totals.expiring, f.totals.charges, f.coverage.kind], [1, 0, 'nothingDue']);
        assert.equal(f.orders.get('gone')?.warn, false);
      });

      it('counts an order that does not say whether it renews as renewing', () => {
        const f = run(eur(1), [order('quiet', due('2026-11-30', 50))], { ...opts, horizonDays: 10 });
        assert.deepEqual(rows(f), ['2026-11-30 quiet 50.00 short 49']);
        assert.equal(f.renewals[0]?.autoRenew, undefined);
        assert.equal(f.orders.get('quiet')?.warn, true);
      });

      it('forecasts nothing, and warns about nothing, where a field is missing or says it never renews', () => {
        const f = run(eur(0), [
          order('free', { date: { kind: 'day', day: '2026-11-30' }, price: 0, cycle: { kind: 'free' } }),
          order('once', { date: { kind: 'day', day: '2026-11-30' }, price: u(5), cycle: { kind: 'once' } }),
          order('nodate', { price: u(5), cycle: monthly }),
          order('baddate', { dateUnreadable: true, price: u(5) }),
          order('old', due('2026-10-01', 5)),
          order('ended', due('2026-11-30', 5), { statusText: serverText('Terminated') }),
          order('cloud', {}, { renewal: undefined }),
        ]);
        assert.deepEqual(f.renewals, []);
        assert.deepEqual(
          [...f.orders.values()].map((o) => [o.orderId, o.noForecast, o.warn]),
          [
            ['free', 'free', false],
            ['once', 'oneTime', false],
            ['nodate', 'noDate', false],
            ['baddate', 'dateUnreadable', false],
            ['old', 'stale', false],
            ['ended', 'ended', false],
          ],
        );
        assert.deepEqual(f.coverage, { kind: 'nothingDue' });
      });

      it('lists a renewal due recently as overdue, and projects it', () => {
        const f = run(eur(100), [order('late', due('2026-11-14', 10))], { ...opts, horizonDays: 30 });
        assert.deepEqual(
          f.renewals.map((r) => [r.day, r.daysAway, r.overdue, r.projected]),
          [
            ['2026-11-14', -10, true, false],
            ['2026-12-14', 20, false, true],
          ],
        );
      });

      it('flags an order whose charge within the warning window is not covered, and gives each order its next day', () => {
        const f = run(eur(10), [order('soon', due('2026-11-27', 20)), order('later', due('2026-12-20', 5))], opts);
        assert.deepEqual(
          [...f.orders.values()].map((o) => [o.orderId, o.warn, o.nextDay, o.next?.day, o.firstUncovered?.day]),
          [
            ['soon', true, '2026-11-27', '2026-11-27', '2026-11-27'],
            ['later', false, '2026-12-20', '2026-12-20', '2026-12-20'],
          ],
        );
        const none = run(eur(10), [order('far', due('2027-06-01', 20))], opts);
        assert.deepEqual([none.orders.get('far')?.nextDay, none.orders.get('far')?.next], ['2027-06-01', undefined]);
      });
    });
  }

  describe('time zones', () => {
    it('puts an instant on the user’s calendar, and a day on the same day everywhere', () => {
      const orders = [
        order('instant', {
          date: { kind: 'instant', at: Date.UTC(2026, 11, 3, 23, 30) },
          price: u(1),
          currency: 'EUR',
        }),
        order('day', { date: { kind: 'day', day: '2026-12-03' }, price: u(1), currency: 'EUR' }),
      ];
      const dayIn = (zone: ZoneOffset): string[] =>
        run(eur(9), orders, { zone, horizonDays: 30 }).renewals.map((r) => r.day);
      assert.deepEqual(dayIn(UTC), ['2026-12-03', '2026-12-03']);
      assert.deepEqual(dayIn(fixedZone(60)), ['2026-12-03', '2026-12-04']);
      assert.deepEqual(dayIn(fixedZone(-300)), ['2026-12-03', '2026-12-03']);
    });

    it('counts days away from the user’s today: late evening in one zone is tomorrow in another', () => {
      const late = Date.UTC(2026, 10, 24, 23, 30);
      const orders = [order('a', due('2026-11-27', 20))];
      assert.equal(run(eur(0), orders, { zone: UTC }, [], late).renewals[0]?.daysAway, 3);
      assert.equal(run(eur(0), orders, { zone: fixedZone(60) }, [], late).renewals[0]?.daysAway, 2);
      assert.equal(run(eur(0), orders, { zone: fixedZone(60) }, [], late).today, '2026-11-25');
    });
  });

  it('takes the machine’s zone when none is given (run under three TZ values)', () => {
    const forecastModule = require.resolve('../../src/billing/forecast');
    const script = `
      const { forecast } = require(${JSON.stringify(forecastModule)});
      const order = { id: 'a', label: 'a', state: 'running', raw: {},
        renewal: { date: { kind: 'instant', at: Date.UTC(2026, 11, 3, 23, 30) }, price: 10000, currency: 'EUR' } };
      const f = forecast({ amount: 5, currency: 'EUR', raw: {} }, [order], [], Date.UTC(2026, 10, 24, 23, 30));
      process.stdout.write(JSON.stringify([f.today, f.renewals[0].day, f.renewals[0].daysAway]));`;
    const inZone = (tz: string): unknown =>
      JSON.parse(execFileSync(process.execPath, ['-e', script], { env: { ...process.env, TZ: tz }, encoding: 'utf8' }));
    assert.deepEqual(inZone('UTC'), ['2026-11-24', '2026-12-03', 9]);
    assert.deepEqual(inZone('Europe/Berlin'), ['2026-11-25', '2026-12-04', 9]);
    assert.deepEqual(inZone('America/New_York'), ['2026-11-24', '2026-12-03', 9]);
  });

  describe('unpaid invoices', () => {
    const invoice = (id: string, dueDate: string, amount: number, more: Partial<Invoice> = {}): Invoice => ({
      id,
      dueDate: serverText(dueDate),
      amount,
      currency: 'EUR',
      status: 'unpaid',
      url: `https://billing.example.com/invoices/${id}`,
      raw: {},
      ...more,
    });

    it('counts an invoice for an order’s next renewal once, on the order, with its link', () => {
      const f = run(eur(100), [order('a', due('2026-12-01', 12.9))], { horizonDays: 20 }, [
        invoice('7', '2026-12-01', 12.9),
      ]);
      assert.deepEqual(rows(f), ['2026-12-01 a 12.90 covered']);
      assert.deepEqual(f.renewals[0]?.invoice, { invoiceId: '7', url: 'https://billing.example.com/invoices/7' });
      assert.equal(f.unpaidInvoices[0]?.orderId, 'a');
    });

    it('counts both when the amounts differ (tax), erring towards warning early', () => {
      const f = run(eur(100), [order('a', due('2026-12-01', 12.9))], { horizonDays: 20 }, [
        invoice('7', '2026-12-01', 15.48),
      ]);
      assert.deepEqual(rows(f), ['2026-12-01 a 12.90 covered', '2026-12-01 invoice 7 15.48 covered']);
    });

    it('charges every unpaid invoice, however overdue; skips paid ones', () => {
      const f = run(eur(10), [], { horizonDays: 20 }, [
        invoice('1', '2025-01-08', 15.95, { status: 'overdue' }),
        invoice('2', '2026-12-01', 5),
        invoice('3', '2026-12-01', 5, { status: 'paid' }),
        invoice('4', '2026-12-01', 5, { status: 'cancelled' }),
        invoice('5', 'soon', 5),
        invoice('6', '2027-06-01', 5),
      ]);
      assert.deepEqual(rows(f), [
        '2025-01-08 invoice 1 15.95 short 5.95',
        '2026-11-24 invoice 5 5.00 short 10.95',
        '2026-12-01 invoice 2 5.00 short 15.95',
      ]);
      assert.deepEqual(
        f.unpaidInvoices.map((i) => [i.invoiceId, i.day, i.overdue]),
        [
          ['1', '2025-01-08', true],
          ['2', '2026-12-01', false],
          ['5', undefined, false],
          ['6', '2027-06-01', false],
        ],
      );
    });

    it('counts an unpaid invoice without a readable due date as due now', () => {
      const f = run(eur(10), [], { horizonDays: 20 }, [
        invoice('5', 'soon', 15),
        { ...invoice('6', '', 1), dueDate: undefined, status: 'overdue' },
      ]);
      assert.deepEqual(rows(f), ['2026-11-24 invoice 5 15.00 short 5', '2026-11-24 invoice 6 1.00 short 6']);
      assert.deepEqual(
        f.unpaidInvoices.map((i) => [i.day, i.overdue]),
        [
          [undefined, false],
          [undefined, true],
        ],
      );
    });
  });

  describe('hostile values, bounded', () => {
    it('reads years 9999 and prices of 10^300 without listing or summing them', () => {
      const f = run(eur(10), [
        order('far', due('9999-12-31', 5)),
        order('rich', { date: { kind: 'day', day: '2026-12-01' }, priceProblem: 'tooLarge', cycle: monthly }),
      ]);
      assert.deepEqual(rows(f).slice(0, 1), ['2026-12-01 rich ? unpriced']);
      assert.equal(f.orders.get('far')?.nextDay, '9999-12-31');
      assert.equal(forecast(eur(1e300), [], [], NOW).coverage.kind, 'noBalance');
      assert.throws(() => forecast(eur(1), [], [], Number.NaN), RangeError);
    });

    it('lists 100,000 monthly orders in bounded time, each day it lists in full', () => {
      const today = parseDayText('2026-11-24') as number;
      const orders = Array.from({ length: 100_000 }, (_, i) => order(String(i), due(dayText(today + (i % 30)), 1)));
      const started = performance.now();
      const f = run(eur(1_000_000), orders);
      const took = performance.now() - started;
      assert.ok(took < 15_000, `${took} ms: a runaway, not a timing figure (the bench has that)`);
      assert.equal(f.cut, 'renewalLimit');
      assert.equal(f.renewals.length, 100_000);
      assert.equal(f.horizonEnd, '2026-12-23', 'the first day it could not list in full is left out');
      const counted = new Map<string, number>();
      for (const r of f.renewals) counted.set(r.day, (counted.get(r.day) ?? 0) + 1);
      assert.ok([...counted.values()].every((n) => n === Math.floor(100_000 / 30) || n === Math.ceil(100_000 / 30)));
    });

    it('stops an hourly order at 400 renewals, and the forecast at the day before its next', () => {
      const orders = [
        order('h', { date: { kind: 'instant', at: NOW }, price: u(0.01), currency: 'EUR', cycle: every('hour') }),
      ];
      const f = run(eur(100), orders);
      assert.equal(f.cut, 'renewalLimit');
      assert.equal(f.horizonEnd, '2026-12-10');
      assert.equal(f.renewals.length, 13 + 24 * 16);
    });

    it('stops before sums leave the range integers are exact in', () => {
      const orders = Array.from({ length: 2000 }, (_, i) => order(String(i), due('2026-12-01', 99_999_999_999)));
      orders.push(order('early', due('2026-11-30', 1)));
      const f = run(eur(0), orders, { horizonDays: 10 });
      assert.equal(f.cut, 'amountLimit');
      assert.equal(f.horizonEnd, '2026-11-30');
      assert.deepEqual(rows(f), ['2026-11-30 early 1.00 short 1']);
    });
  });

  it('keeps its promises for any orders and balance (property)', () => {
    const cycle = fc.constantFrom<RenewalCycle | undefined>(
      undefined,
      monthly,
      every('week'),
      every('day', 3),
      every('year'),
    );
    const renewal = fc.record({
      offset: fc.integer({ min: -40, max: 120 }),
      price: fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: undefined }),
      currency: fc.constantFrom<string | undefined>('EUR', 'EUR', 'EUR', undefined, 'USD'),
      autoRenew: fc.constantFrom<boolean | undefined>(undefined, true, false),
      cycle,
    });
    const today = parseDayText('2026-11-24') as number;
    fc.assert(
      fc.property(
        fc.array(renewal, { maxLength: 30 }),
        fc.integer({ min: -1_000_000, max: 50_000_000 }),
        fc.integer({ min: 0, max: 120 }),
        fc.constantFrom(0, -600, 330, 840),
        (specs, balance, horizonDays, offset) => {
          const orders = specs.map((s, i) =>
            order(String(i), {
              date: { kind: 'day', day: dayText(today + s.offset) },
              ...(s.price === undefined ? {} : { price: s.price }),
              ...(s.currency === undefined ? {} : { currency: s.currency }),
              ...(s.autoRenew === undefined ? {} : { autoRenew: s.autoRenew }),
              ...(s.cycle === undefined ? {} : { cycle: s.cycle }),
            }),
          );
          const f = run({ amount: balance / AMOUNT_SCALE, currency: 'EUR', raw: {} }, orders, {
            horizonDays,
            zone: fixedZone(offset),
          });
          let spent = 0;
          let uncovered = false;
          let previous = '';
          for (const r of f.renewals) {
            assert.ok(r.day >= previous, 'in date order');
            assert.ok(r.day <= f.horizonEnd);
            previous = r.day;
            if (r.kind !== 'charge') {
              assert.equal(r.covered, undefined);
              continue;
            }
            spent += r.amount as number;
            assert.equal(r.balanceAfter, balance - spent);
            assert.equal(r.covered, balance - spent >= 0);
            assert.equal(r.shortBy, Math.max(0, spent - balance));
            if (uncovered) assert.equal(r.covered, false, 'once short, short after');
            uncovered ||= r.covered === false;
          }
          assert.equal(f.totals.amount, spent);
          assert.equal(f.totals.charges, f.renewals.filter((r) => r.kind === 'charge').length);
          for (const o of f.orders.values()) {
            const mine = f.renewals.filter((r) => r.source.kind === 'order' && r.source.orderId === o.orderId);
            assert.equal(
              o.warn,
              mine.some((r) => r.kind === 'charge' && r.covered === false && r.daysAway <= 7),
            );
          }
          const longer = run({ amount: balance / AMOUNT_SCALE, currency: 'EUR', raw: {} }, orders, {
            horizonDays: horizonDays + 30,
            zone: fixedZone(offset),
          });
          // As written out: an entry reads what it shares with its order's other renewals through a private field.
          const written = (list: readonly ForecastRenewal[]): unknown => JSON.parse(JSON.stringify(list));
          assert.deepEqual(
            written(longer.renewals.slice(0, f.renewals.length)),
            written(f.renewals),
            'a longer forecast starts alike',
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
