import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type Balance, type Invoice, type Order } from '../../src/api/models';
import { AMOUNT_SCALE } from '../../src/api/normalise/money';
import { formatDay, formatUnits, unitsText } from '../../src/billing/display';
import { ForecastMemo } from '../../src/billing/ForecastMemo';
import { fixedZone } from '../../src/util/calendar';
import { serverText } from '../../src/util/serverText';

const NOW = Date.UTC(2026, 10, 24, 11);
const DAY = 86_400_000;

describe('forecast display: days and amounts (unit)', () => {
  it('writes a day short, in the locale’s order, with the year only when it is not this year’s', () => {
    assert.equal(formatDay('2026-12-03', '2026-11-24', 'en'), 'Dec 3');
    assert.equal(formatDay('2026-12-03', '2026-11-24', 'en-GB'), '3 Dec');
    assert.equal(formatDay('2027-01-15', '2026-11-24', 'en'), 'Jan 15, 2027');
    assert.equal(formatDay('2026-12-03', '2026-11-24', 'de'), '3. Dez.');
  });

  it('writes the calendar day it is given, whatever the machine’s zone (no instant, no shift)', () => {
    // The first and last day of a year are where a zone shift would show.
    assert.equal(formatDay('2027-01-01', '2027-06-01', 'en'), 'Jan 1');
    assert.equal(formatDay('2026-12-31', '2026-06-01', 'en'), 'Dec 31');
  });

  it('returns text that is not a day, and a day in a locale Intl refuses, as it is', () => {
    assert.equal(formatDay('soon', '2026-11-24', 'en'), 'soon');
    assert.equal(formatDay('2026-02-30', '2026-11-24', 'en'), '2026-02-30');
    assert.equal(formatDay('2026-12-03', '2026-11-24', 'not a locale!'), '2026-12-03');
  });

  it('writes units as exact decimal text, also beyond what a float holds to four places', () => {
    assert.equal(unitsText(129_000), '12.9000');
    assert.equal(unitsText(-433_000), '-43.3000');
    assert.equal(unitsText(123), '0.0123');
    assert.equal(unitsText(0), '0.0000');
    assert.equal(unitsText(999_999_999_999_999), '99999999999.9999');
  });

  it('formats money in the locale with its currency, cents always, finer digits only when there are any', () => {
    assert.equal(formatUnits(129_000, 'EUR', 'en'), '€12.90');
    assert.equal(formatUnits(129_000, 'EUR', 'de'), '12,90\u00a0€');
    assert.equal(formatUnits(-433_000, 'EUR', 'en'), '-€43.30');
    assert.equal(formatUnits(123, 'USD', 'en'), '$0.0123');
    assert.equal(formatUnits(12_000_000, 'JPY', 'en'), '¥1,200');
    assert.equal(formatUnits(129_000, undefined, 'en'), '12.90');
    assert.equal(formatUnits(999_999_999_999_999, 'EUR', 'en'), '€99,999,999,999.9999');
  });

  it('falls back to digits and the code for a currency Intl does not know', () => {
    assert.equal(formatUnits(129_000, 'ZZ', 'en'), '12.90 ZZ');
  });

  it('never loses a digit: the text read back is the units (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), (units) => {
        const text = formatUnits(units, 'EUR', 'en').replace(/[€,]/g, '');
        const [whole, fraction = ''] = text.replace('-', '').split('.');
        const back = Number(whole) * AMOUNT_SCALE + Number(fraction.padEnd(4, '0'));
        assert.equal(text.startsWith('-') ? -back : back, units);
      }),
    );
  });
});

describe('forecast memo: once per change of the data (unit)', () => {
  const balance: Balance = { amount: 42.5, currency: 'EUR', raw: {} };
  const order = (id: string): Order => ({
    id,
    label: serverText(id),
    state: 'running',
    raw: {},
    renewal: { date: { kind: 'day', day: '2026-11-27' }, price: 799_000, currency: 'EUR' },
  });
  const orders = [order('a')];
  const invoices: Invoice[] = [];

  it('gives the same forecast for the same values on the same day', () => {
    const memo = new ForecastMemo(fixedZone(0));
    const first = memo.get({ balance, orders, invoices }, NOW);
    assert.equal(memo.get({ balance, orders, invoices }, NOW + 3_600_000), first);
    assert.equal(first.coverage.kind, 'short');
  });

  it('makes it again when a value, the day or the warning window changes', () => {
    const memo = new ForecastMemo(fixedZone(0));
    const first = memo.get({ balance, orders, invoices }, NOW);
    const more = memo.get({ balance: { ...balance, amount: 100 }, orders, invoices }, NOW);
    assert.notEqual(more, first);
    assert.equal(more.coverage.kind, 'covered');
    const reread = [order('a')];
    assert.notEqual(memo.get({ balance, orders: reread, invoices }, NOW), more, 'a list read again');
    const last = memo.get({ balance, orders: reread, invoices }, NOW);
    assert.notEqual(memo.get({ balance, orders: reread, invoices }, NOW + DAY), last, 'the next day');
    const nextDay = memo.get({ balance, orders: reread, invoices }, NOW + DAY);
    assert.notEqual(memo.get({ balance, orders: reread, invoices }, NOW + DAY, 3), nextDay, 'another window');
  });

  it('takes invoices not read yet as none, without making the forecast again for each ask', () => {
    const memo = new ForecastMemo(fixedZone(0));
    const first = memo.get({ balance, orders, invoices: undefined }, NOW);
    assert.equal(memo.get({ balance, orders, invoices: undefined }, NOW), first);
    assert.deepEqual(first.unpaidInvoices, []);
  });
});
