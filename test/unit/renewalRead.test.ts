import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type RenewalCycle } from '../../src/api/models';
import { normaliseOrder } from '../../src/api/normalise/order';
import { readCycleWord } from '../../src/api/normalise/renewal/cycle';
import { readDate } from '../../src/api/normalise/dates';
import { AMOUNT_SCALE, readUnits } from '../../src/api/normalise/money';
import { readRenewal } from '../../src/api/normalise/renewal/readRenewal';
import { type FieldTrace } from '../../src/api/normalise/read';
import { plain } from '../../src/util/serverText';

const u = (major: number): number => Math.round(major * AMOUNT_SCALE);
const monthly: RenewalCycle = { kind: 'every', unit: 'month', count: 1 };

describe('renewal readers (unit)', () => {
  describe('amounts, exactly', () => {
    const CASES: ReadonlyArray<[string, ReturnType<typeof readUnits>]> = [
      ['12.90', { units: 129_000 }],
      ['12,90', { units: 129_000 }],
      ['1,234.50', { units: u(1234.5) }],
      ['1.234,50', { units: u(1234.5) }],
      ['1 234,50', { units: u(1234.5) }],
      ["1'234.50", { units: u(1234.5) }],
      ['1\u00a0234,5', { units: u(1234.5) }],
      ['1,234,567', { units: u(1_234_567) }],
      ['1.234.567', { units: u(1_234_567) }],
      ['1.234', { units: 12_340 }],
      ['1,2345', { units: 12_345 }],
      ['1,234', { problem: 'ambiguous' }],
      ['12.90 EUR', { units: 129_000, currency: 'EUR' }],
      ['EUR 12.90', { units: 129_000, currency: 'EUR' }],
      ['€12,90', { units: 129_000, currency: 'EUR' }],
      ['$0.00 USD', { units: 0, currency: 'USD' }],
      ['-3.50', { units: -35_000 }],
      ['EUR -3', { units: -30_000, currency: 'EUR' }],
      ['9.9900', { units: 99_900 }],
      ['12.340000', { units: 123_400 }],
      ['12.345678', { units: 123_457 }],
      ['0,015', { units: 150 }],
      ['99999999999', { units: 99_999_999_999 * AMOUNT_SCALE }],
      ['999999999999', { problem: 'tooLarge' }],
      ['1.2.3', { problem: 'notAmount' }],
      ['1,23.50', { problem: 'notAmount' }],
      ['1.234 567', { problem: 'notAmount' }],
      ['1e5', { problem: 'notAmount' }],
      ['', { problem: 'notAmount' }],
      ['free', { problem: 'notAmount' }],
      ['1'.repeat(65), { problem: 'notAmount' }],
    ];
    for (const [text, want] of CASES) {
      it(`reads ${JSON.stringify(text.slice(0, 20))}`, () => assert.deepEqual(readUnits(text), want));
    }

    it('reads JSON numbers rounded to a ten-thousandth, float noise included, and refuses what is not money', () => {
      assert.deepEqual(readUnits(12.95), { units: 129_500 });
      assert.deepEqual(readUnits(0.1 + 0.2), { units: 3000 });
      assert.deepEqual(readUnits(3.3000000000000003), { units: 33_000 });
      assert.deepEqual(readUnits(12.345_67), { units: 123_457 });
      assert.deepEqual(readUnits(-0.000_01), { units: 0 });
      assert.deepEqual(readUnits(1e300), { problem: 'tooLarge' });
      assert.deepEqual(readUnits(Number.NaN), { problem: 'notAmount' });
      assert.deepEqual(readUnits(-42.5), { units: -425_000 });
    });

    it('reads any amount back from the ways it is written (property)', () => {
      const group = (digits: string, mark: string): string => {
        const parts: string[] = [];
        for (let end = digits.length; end > 0; end -= 3) parts.unshift(digits.slice(Math.max(0, end - 3), end));
        return parts.join(mark);
      };
      fc.assert(
        fc.property(fc.integer({ min: -(10 ** 15 - 1), max: 10 ** 15 - 1 }), (units) => {
          const sign = units < 0 ? '-' : '';
          const whole = String(Math.floor(Math.abs(units) / AMOUNT_SCALE));
          const fraction = String(Math.abs(units) % AMOUNT_SCALE).padStart(4, '0');
          for (const text of [
            `${sign}${whole}.${fraction}`,
            `${sign}${group(whole, ',')}.${fraction}`,
            `${sign}${group(whole, '.')},${fraction}`,
            `${sign}${group(whole, ' ')},${fraction} EUR`,
          ]) {
            assert.equal(readUnits(text).units, units, text);
          }
          if (Math.abs(units) < 2 ** 40) assert.equal(readUnits(units / AMOUNT_SCALE).units, units);
        }),
      );
    });
  });

  describe('dates', () => {
    const CASES: ReadonlyArray<[unknown, ReturnType<typeof readDate>]> = [
      ['2026-12-03', { kind: 'day', day: '2026-12-03' }],
      ['2026-12-03 10:00:00', { kind: 'day', day: '2026-12-03' }],
      ['2026-12-03T23:30', { kind: 'day', day: '2026-12-03' }],
      ['2026-12-03T10:00:00Z', { kind: 'instant', at: Date.UTC(2026, 11, 3, 10) }],
      ['2026-12-03T10:00:00.000000Z', { kind: 'instant', at: Date.UTC(2026, 11, 3, 10) }],
      ['2026-12-03T10:00:00+02:00', { kind: 'instant', at: Date.UTC(2026, 11, 3, 8) }],
      ['2026-12-03T10:00:00-0530', { kind: 'instant', at: Date.UTC(2026, 11, 3, 15, 30) }],
      ['2024-02-29', { kind: 'day', day: '2024-02-29' }],
      ['2026-02-29', undefined],
      ['2026-13-01', undefined],
      ['2026-12-03T25:00:00Z', undefined],
      ['2026-12-03T10:00:00+19:00', undefined],
      ['0000-00-00', undefined],
      ['0000-00-00 00:00:00', undefined],
      ['1969-12-31', undefined],
      ['9999-12-31', { kind: 'day', day: '9999-12-31' }],
      ['10000-01-01', undefined],
      [1_764_720_000, { kind: 'instant', at: 1_764_720_000_000 }],
      ['1764720000', { kind: 'instant', at: 1_764_720_000_000 }],
      [1_764_720_000_123, { kind: 'instant', at: 1_764_720_000_123 }],
      [1e300, undefined],
      [Number.NaN, undefined],
      [-1, undefined],
      [42, undefined],
      ['next month', undefined],
      ['Dec 3, 2026', undefined],
      ['03.12.2026', undefined],
      ['2026-12-03Z', undefined],
      [{ date: '2026-12-03' }, undefined],
    ];
    for (const [value, want] of CASES) {
      it(`reads ${JSON.stringify(value)}`, () => assert.deepEqual(readDate(value), want));
    }

    it('reads every valid day it could be sent (property)', () => {
      fc.assert(
        fc.property(
          fc.date({ noInvalidDate: true, min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)) }),
          (d) => {
            const day = d.toISOString().slice(0, 10);
            assert.deepEqual(readDate(day), { kind: 'day', day });
            assert.deepEqual(readDate(d.toISOString()), { kind: 'instant', at: d.getTime() });
          },
        ),
      );
    });
  });

  describe('cycles', () => {
    const CASES: ReadonlyArray<[string, RenewalCycle | undefined]> = [
      ['Monthly', monthly],
      ['Quarterly', { kind: 'every', unit: 'month', count: 3 }],
      ['Semi-Annually', { kind: 'every', unit: 'month', count: 6 }],
      ['Annually', { kind: 'every', unit: 'year', count: 1 }],
      ['Biennially', { kind: 'every', unit: 'year', count: 2 }],
      ['Triennially', { kind: 'every', unit: 'year', count: 3 }],
      ['Hourly', { kind: 'every', unit: 'hour', count: 1 }],
      ['One Time', { kind: 'once' }],
      ['Free Account', { kind: 'free' }],
      ['3 months', { kind: 'every', unit: 'month', count: 3 }],
      ['month', monthly],
      ['Every full moon', undefined],
      ['0 months', undefined],
      ['1001 months', undefined],
      ['x'.repeat(100), undefined],
    ];
    for (const [word, want] of CASES) {
      it(`reads ${JSON.stringify(word.slice(0, 20))}`, () => assert.deepEqual(readCycleWord(word), want));
    }
  });

  describe('an order’s renewal', () => {
    it('reads a date field holding an object that cannot be made text as unreadable, without throwing', () => {
      const renewal = readRenewal(JSON.parse('{"nextduedate":{"toString":0}}') as Record<string, unknown>, '');
      assert.ok(renewal);
    });

    it('reads the WHMCS fields, and donotrenew inverted', () => {
      const product = { id: '1', nextduedate: '2026-12-03', recurringamount: '12.90', billingcycle: 'Monthly' };
      assert.deepEqual(readRenewal(product), {
        date: { kind: 'day', day: '2026-12-03' },
        price: 129_000,
        cycle: monthly,
        cycleText: 'Monthly',
      });
      for (const [value, autoRenew] of [
        ['1', false],
        [1, false],
        [true, false],
        ['0', true],
        [false, true],
      ] as const) {
        assert.equal(readRenewal({ ...product, donotrenew: value })?.autoRenew, autoRenew, String(value));
      }
      assert.equal(readRenewal({ ...product, donotrenew: 'maybe' })?.autoRenew, undefined);
      assert.equal(readRenewal({ ...product, donotrenew: '' })?.autoRenew, undefined, 'empty is unsaid');
    });

    it('reads Paymenter’s count and unit, Blesta’s term and period, and a cycle inside a pricing object', () => {
      assert.deepEqual(readRenewal({ id: 1, price: '5', billing_period: 3, billing_unit: 'month' })?.cycle, {
        kind: 'every',
        unit: 'month',
        count: 3,
      });
      assert.deepEqual(readRenewal({ id: 1, term: '2', period: 'year', price: '5' })?.cycle, {
        kind: 'every',
        unit: 'year',
        count: 2,
      });
      assert.deepEqual(readRenewal({ id: 1, pricing: { price: '5.00', currency: 'CHF', period: 'week' } }), {
        price: 50_000,
        currency: 'CHF',
        cycle: { kind: 'every', unit: 'week', count: 1 },
        cycleText: 'week',
      });
      assert.deepEqual(readRenewal({ id: 1, period: 1, price: '5' })?.cycle, undefined, 'a bare number is no cycle');
      const inStatus = { id: 1, name: 'x', status: { state: 'running', period: 'month' }, price: '5' };
      assert.equal(normaliseOrder(inStatus).renewal?.cycle, undefined, 'a period in the status is no billing cycle');
    });

    it('reads money objects, minor units where the name says so, and a monthly price as monthly', () => {
      assert.deepEqual(readRenewal({ id: 1, price: { amount: '12.90', currency: 'EUR' } }), {
        price: 129_000,
        currency: 'EUR',
      });
      assert.equal(readRenewal({ id: 1, price_cents: 1290 })?.price, 129_000);
      assert.equal(readRenewal({ id: 1, amount_minor: 1500, currency: 'JPY' })?.price, 1500 * AMOUNT_SCALE);
      assert.equal(readRenewal({ id: 1, amount_minor: 1500, currency: 'KWD' })?.price, 1.5 * AMOUNT_SCALE);
      assert.equal(readRenewal({ id: 1, price_cents: 12.34 })?.price, 1234, 'a fraction of a cent, exactly');
      assert.equal(readRenewal({ id: 1, price_cents: 12.345 })?.price, 1235, 'finer than a ten-thousandth: rounded');
      assert.deepEqual(readRenewal({ id: 1, price_monthly: 5.9, currency: 'EUR' }), {
        price: 59_000,
        currency: 'EUR',
        cycle: monthly,
      });
    });

    it('leaves a cycle whose count it cannot read unknown, never one of its unit (term: 1200, "1001 months")', () => {
      const order = { id: 1, nextduedate: '2026-12-03', recurringamount: '5.00' };
      assert.deepEqual(readRenewal({ ...order, term: 1200, period: 'month' }), {
        date: { kind: 'day', day: '2026-12-03' },
        price: 50_000,
        cycleText: '1200 month',
      });
      assert.deepEqual(readRenewal({ ...order, billingcycle: '1001 months' })?.cycle, undefined);
      assert.deepEqual(readRenewal({ ...order, term: 'x', period: 'month' })?.cycle, undefined);
      assert.deepEqual(readRenewal({ ...order, period: 'month' })?.cycle, monthly, 'a unit alone is one of it');
    });

    it('reads a range written with a dash ("6-12 months") as no cycle, its text kept, never as every 612 months', () => {
      const order = { id: 1, nextduedate: '2026-12-03', recurringamount: '5.00' };
      for (const range of ['6-12 months', '1 - 3 Years', '6-12']) {
        const renewal = readRenewal({ ...order, billingcycle: range });
        assert.equal(renewal?.cycle, undefined, range);
        assert.equal(renewal?.cycleText, range);
      }
      assert.deepEqual(readCycleWord('12-Month'), { kind: 'every', unit: 'month', count: 12 }, 'a dash before a unit');
      assert.deepEqual(readCycleWord('Semi-Annually'), { kind: 'every', unit: 'month', count: 6 });
    });

    it('reads BILLmanager’s {"$": …} values and its auto-renewal period in months', () => {
      assert.deepEqual(readRenewal({ id: { $: '1' }, expiredate: { $: '2026-12-01' }, autoprolong: { $: '3' } }), {
        date: { kind: 'day', day: '2026-12-01' },
        cycle: { kind: 'every', unit: 'month', count: 3 },
        autoRenew: true,
      });
      assert.equal(readRenewal({ id: 1, autoprolong: 'null' })?.autoRenew, false);
    });

    it('lets the first field present decide, and says what it could not read instead of guessing', () => {
      assert.deepEqual(readRenewal({ id: 1, nextduedate: 'soon', expires_at: '2026-12-03' }), { dateUnreadable: true });
      assert.deepEqual(readRenewal({ id: 1, nextduedate: '0000-00-00', expires_at: '2026-12-03' }), undefined);
      assert.deepEqual(readRenewal({ id: 1, recurringamount: '1,234', price: '5.00' }), { priceProblem: 'ambiguous' });
      assert.deepEqual(readRenewal({ id: 1, recurringamount: '-5.00' }), { priceProblem: 'negative' });
      assert.deepEqual(readRenewal({ id: 1, price: 1e300 }), { priceProblem: 'tooLarge' });
      assert.deepEqual(readRenewal({ id: 1, price: Number.NaN }), { priceProblem: 'notAmount' });
      assert.deepEqual(readRenewal({ id: 1, override_price: null, price: '5' }), { price: 50_000 });
      assert.equal(readRenewal({ id: 1, name: 'web', status: 'running' }), undefined);
    });

    it('traces which field was read as what', () => {
      const uses: string[] = [];
      const trace: FieldTrace = { use: (role, path) => void uses.push(`${role} ← ${path}`) };
      readRenewal(
        { id: 1, next_due_date: '2026-12-03', recurring_amount: '5', billing_cycle: 'monthly' },
        'data',
        trace,
      );
      assert.deepEqual(uses, [
        'renewal ← data.next_due_date',
        'price ← data.recurring_amount',
        'cycle ← data.billing_cycle',
      ]);
    });

    it('is attached to the order only when the server said something about renewing', () => {
      const order = normaliseOrder({ id: 7, name: 'web', nextDueDate: '2026-12-03', RecurringAmount: '9,90' });
      assert.deepEqual(order.renewal, { date: { kind: 'day', day: '2026-12-03' }, price: 99_000 });
      assert.equal('renewal' in normaliseOrder({ id: 8, name: 'cloud', status: 'running' }), false);
    });

    it('stays bounded on hostile values: huge text, wide objects, years 9999 (property)', () => {
      const huge = 'x'.repeat(1_000_000);
      const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
      const started = performance.now();
      assert.deepEqual(readRenewal({ id: 1, nextduedate: huge, price: huge, billingcycle: huge, autorenew: huge }), {
        dateUnreadable: true,
        priceProblem: 'notAmount',
        cycleText: huge.slice(0, 40),
      });
      assert.deepEqual(readRenewal({ ...wide, nextduedate: '2026-12-03' })?.date, { kind: 'day', day: '2026-12-03' });
      assert.deepEqual(readRenewal({ nextduedate: '9999-12-31' })?.date, { kind: 'day', day: '9999-12-31' });
      // A runaway guard, not a timing figure (the bench has those): far above what any machine needs.
      assert.ok(performance.now() - started < 10_000);
      const json = fc.jsonValue({ maxDepth: 3 });
      const names = ['nextduedate', 'expires_at', 'price', 'recurringamount', 'billingcycle', 'term', 'period'];
      const field = fc.oneof(
        fc.constantFrom(...names, 'autoprolong', 'donotrenew', 'pricing', 'billing_unit'),
        fc.string(),
      );
      fc.assert(
        fc.property(fc.dictionary(field, json, { maxKeys: 12 }), (obj) => {
          const renewal = readRenewal(obj);
          if (renewal?.price !== undefined) assert.ok(Number.isSafeInteger(renewal.price) && renewal.price >= 0);
          if (renewal?.cycleText !== undefined) assert.ok(plain(renewal.cycleText).length <= 40);
          if (renewal?.date?.kind === 'day') assert.match(renewal.date.day, /^\d{4}-\d{2}-\d{2}$/);
        }),
        { numRuns: 500 },
      );
    });
  });
});
