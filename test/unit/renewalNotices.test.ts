import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type Balance, type Order, type OrderRenewal } from '../../src/api/models';
import { AMOUNT_SCALE } from '../../src/api/normalise/money';
import { forecast } from '../../src/billing/forecast';
import { keepTold, noticeKey, noticesDue, ordersToWarn } from '../../src/billing/notices';
import { type Forecast } from '../../src/billing/types';
import { DAY_MS, dayText, fixedZone, parseDayText } from '../../src/util/calendar';
import { serverText } from '../../src/util/serverText';

const UTC = fixedZone(0);
const NOW = Date.UTC(2026, 10, 24, 11);
const TODAY = parseDayText('2026-11-24') as number;
const eur = (major: number): Balance => ({ amount: major, currency: 'EUR', raw: {} });

function order(id: string, inDays: number, price: number, more: Partial<OrderRenewal> = {}): Order {
  const renewal: OrderRenewal = {
    date: { kind: 'day', day: dayText(TODAY + inDays) },
    price: Math.round(price * AMOUNT_SCALE),
    currency: 'EUR',
    ...more,
  };
  return { id, label: serverText(id), state: 'running', raw: {}, renewal };
}

function due(f: Forecast, told: Iterable<string> = [], now = NOW, account = 'acc'): string[] {
  return noticesDue(f, { account, told: new Set(told), now, zone: UTC }).map((n) => n.key);
}

const at = (days: number): Forecast => forecast(eur(0), [order('web-01', days, 12.9)], [], NOW, { zone: UTC });

describe('renewal warning steps (unit)', () => {
  it('tells each step once, 7, 3, 1 and 0 days before a renewal the balance does not pay', () => {
    assert.deepEqual(due(at(8)), []);
    assert.deepEqual(due(at(7)), ['acc/web-01/2026-12-01/7']);
    assert.deepEqual(due(at(5)), ['acc/web-01/2026-11-29/7']);
    assert.deepEqual(due(at(3)), ['acc/web-01/2026-11-27/3']);
    assert.deepEqual(due(at(2)), ['acc/web-01/2026-11-26/3'], 'the current step only, not the missed 7');
    assert.deepEqual(due(at(1)), ['acc/web-01/2026-11-25/1']);
    assert.deepEqual(due(at(0)), ['acc/web-01/2026-11-24/0']);
    assert.deepEqual(due(at(-3)), ['acc/web-01/2026-11-21/0'], 'past due: the last step');
  });

  it('never repeats a step already told, and moves on to the next step as the days pass', () => {
    const f = at(7);
    const first = due(f);
    assert.deepEqual(due(f, first), []);
    assert.deepEqual(due(f, first, NOW + 3 * DAY_MS), [], 'four days away: still the 7-day step');
    assert.deepEqual(due(f, first, NOW + 4 * DAY_MS), ['acc/web-01/2026-12-01/3']);
    assert.deepEqual(due(f, [...first, 'acc/web-01/2026-12-01/3'], NOW + 5 * DAY_MS), []);
    assert.deepEqual(due(f, first, NOW + 7 * DAY_MS), ['acc/web-01/2026-12-01/0']);
  });

  it('tells nothing when everything is covered, nor for an order that does not renew or has no price', () => {
    const covered = forecast(eur(100), [order('a', 2, 12.9)], [], NOW, { zone: UTC });
    assert.deepEqual(due(covered), []);
    const gone = forecast(eur(0), [order('b', 2, 12.9, { autoRenew: false })], [], NOW, { zone: UTC });
    assert.deepEqual(due(gone), []);
    const unpriced = forecast(eur(0), [order('c', 2, 0, { price: undefined, priceProblem: 'ambiguous' })], [], NOW, {
      zone: UTC,
    });
    assert.deepEqual(due(unpriced), []);
    assert.deepEqual(due(forecast(undefined, [order('d', 2, 12.9)], [], NOW, { zone: UTC })), [], 'no balance read');
  });

  it('tells about every renewal not covered, unpaid invoices too, in keys no account or id can mix up', () => {
    const f = forecast(
      eur(10),
      [order('a/b', 1, 5), order('c', 2, 10)],
      [{ id: '7', dueDate: serverText(dayText(TODAY + 3)), amount: 4, currency: 'EUR', status: 'unpaid', raw: {} }],
      NOW,
      { zone: UTC },
    );
    assert.deepEqual(due(f, [], NOW, 'acc/1'), ['acc%2F1/c/2026-11-26/3', 'acc%2F1/invoice/7/2026-11-27/3']);
    const renewal = f.renewals[1];
    assert.ok(renewal);
    assert.notEqual(noticeKey('a', renewal, 3), noticeKey('b', renewal, 3));
  });

  it('keys a step by the renewal’s date as the server gave it: moving to another zone tells it not again', () => {
    const renewal: OrderRenewal = {
      date: { kind: 'instant', at: Date.UTC(2026, 10, 29, 23, 30) },
      price: 129_000,
      currency: 'EUR',
    };
    const orders = [{ ...order('web-01', 0, 0), renewal }];
    const told = new Set(due(forecast(eur(0), orders, [], NOW, { zone: UTC })));
    assert.deepEqual([...told], ['acc/web-01/2026-11-29T23:30:00.000Z/7']);
    const paris = forecast(eur(0), orders, [], NOW, { zone: fixedZone(60) });
    assert.equal(paris.renewals[0]?.day, '2026-11-30', 'another day on the calendar');
    assert.deepEqual(noticesDue(paris, { account: 'acc', told, now: NOW, zone: fixedZone(60) }), []);
    assert.deepEqual(keepTold(told, '2026-11-24'), [...told]);
  });

  it('uses the user’s today: late evening in one zone is tomorrow in another', () => {
    const f = at(3);
    const late = Date.UTC(2026, 10, 24, 23, 30);
    assert.deepEqual(
      noticesDue(f, { account: 'acc', told: new Set(), now: late, zone: fixedZone(60) }).map((n) => [
        n.step,
        n.daysAway,
      ]),
      [[3, 2]],
    );
  });

  it('flags the orders with a charge not covered within the warning window', () => {
    const f = forecast(eur(10), [order('soon', 2, 20), order('later', 20, 5), order('ok', 1, 1)], [], NOW, {
      zone: UTC,
    });
    assert.deepEqual([...ordersToWarn(f)], ['soon']);
    assert.deepEqual([...ordersToWarn(f, 30)], ['soon', 'later']);
    assert.deepEqual([...ordersToWarn(f, 1)], []);
    assert.deepEqual(
      [...f.orders.values()].filter((o) => o.warn).map((o) => o.orderId),
      [...ordersToWarn(f)],
    );
  });

  it('keeps told keys for two months after their renewal, and drops anything else', () => {
    const keys = [
      'acc/a/2026-11-20/0',
      'acc/invoice/7/2026-09-25/0',
      'acc/b/2026-09-22/3',
      'acc/c/not-a-day/1',
      'garbage',
    ];
    assert.deepEqual(keepTold(keys, '2026-11-24'), ['acc/a/2026-11-20/0', 'acc/invoice/7/2026-09-25/0']);
  });

  it('tells at most one step per renewal, never one told, only for renewals not covered (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ days: fc.integer({ min: -5, max: 40 }), price: fc.integer({ min: 0, max: 50 }) }), {
          maxLength: 10,
        }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 10 }),
        (specs, balance, later) => {
          const orders = specs.map((s, i) => order(String(i), s.days, s.price));
          const f = forecast(eur(balance), orders, [], NOW, { zone: UTC });
          const now = NOW + later * DAY_MS;
          const first = noticesDue(f, { account: 'x', told: new Set(), now, zone: UTC });
          const keys = first.map((n) => n.key);
          assert.equal(new Set(keys).size, keys.length);
          for (const n of first) {
            assert.equal(n.renewal.covered, false);
            assert.ok([7, 3, 1, 0].includes(n.step) && n.daysAway <= n.step);
          }
          assert.deepEqual(noticesDue(f, { account: 'x', told: new Set(keys), now, zone: UTC }), []);
        },
      ),
    );
  });
});
