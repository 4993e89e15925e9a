import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import { type Order } from '../../src/api/models';
import { normaliseInvoiceList } from '../../src/api/normalise/invoice';
import { normaliseOrder, normaliseOrderList } from '../../src/api/normalise/order';
import { OrderList } from '../../src/store/orders/OrderList';
import { type Store } from '../../src/store/Store';
import { type FakeApi, storeOnFake } from './helpers/FakeApi';
import { FakeClock } from './helpers/FakeClock';
import { plain, serverText } from '../../src/util/serverText';

/** The list of issue 21: web-A's `id` is an object, and its `server_id` is db-B's id. */
const TAKEN_ID = [
  { id: { value: 'srv-A' }, server_id: '2', name: 'web-A', status: 'running' },
  { id: '2', name: 'db-B', status: 'running' },
];

const order = (id: string, label: string, raw: Record<string, unknown> = { id, name: label }): Order => ({
  id,
  label: serverText(label),
  state: 'running',
  statusText: serverText('running'),
  raw,
});

const isAmbiguousRefusal = (error: unknown): boolean =>
  error instanceof ApiError &&
  error.kind === 'invalidRequest' &&
  error.reason?.rule === 'orderIdAmbiguous' &&
  error.maybeSent === false;

describe('one identity per order (unit)', () => {
  describe('the first id field present decides', () => {
    it('an order whose id is an object is unreadable, never read from server_id (another order can keep its id)', () => {
      const { orders, skipped } = normaliseOrderList(TAKEN_ID);
      assert.deepEqual(
        orders.map((o) => [o.id, o.label]),
        [['2', 'db-B']],
      );
      assert.equal(skipped, 1);
    });

    it('null, boolean, object, array and fractional ids refuse the entry whatever other id fields hold', () => {
      for (const bad of [null, true, false, {}, { value: 7 }, [7], 1.5, -0.25]) {
        for (const fallback of ['uuid', 'order_id', 'server_id', 'number']) {
          assert.throws(
            () => normaliseOrder({ id: bad, [fallback]: 'other-7', name: 'x' }),
            (error: unknown) => error instanceof ApiError && error.kind === 'badResponse',
            `${JSON.stringify(bad)} with ${fallback}`,
          );
        }
      }
      // Present under another spelling still counts: `ID: null` is the id field, and it holds nothing usable.
      assert.throws(() => normaliseOrder({ ID: null, uuid: 'u-1', name: 'x' }), ApiError);
      assert.throws(() => normaliseOrder({ order_id: false, server_id: 's-1', name: 'x' }), ApiError);
      // "First" is in the order of preference of the id fields, not of the object's keys.
      assert.equal(normaliseOrder({ order_id: false, uuid: 'u-1', name: 'x' }).id, 'u-1');
    });

    it("a resource document's own id decides, even when it holds no usable id", () => {
      assert.throws(() => normaliseOrder({ type: 'server', id: { x: 1 }, attributes: { id: 5, name: 'a' } }), ApiError);
      assert.throws(() => normaliseOrder({ type: 'server', id: null, attributes: { id: 5, name: 'a' } }), ApiError);
      assert.equal(normaliseOrder({ type: 'server', attributes: { id: 5, name: 'a' } }).id, '5');
    });

    it('strings, safe integers and exact big integers are ids, kept exactly', () => {
      assert.equal(normaliseOrder({ id: ' 7', uuid: 'u' }).id, ' 7');
      assert.equal(normaliseOrder({ id: 9_007_199_254_740_991 }).id, '9007199254740991');
      assert.equal(normaliseOrder({ id: '9007199254740993' }).id, '9007199254740993');
      assert.equal(normaliseOrder({ uuid: 'u-1', name: 'x' }).id, 'u-1');
    });

    it('BILLmanager’s {"$": …} is the value it wraps, held to the same rules; any other object is no id', () => {
      assert.equal(normaliseOrder({ id: { $: '801' }, pricelist: { $: 'VDS-2' } }).id, '801');
      assert.equal(normaliseOrder({ id: { $: ' 7' } }).id, ' 7', 'kept exactly');
      assert.equal(normaliseOrder({ id: { $: 42 } }).id, '42');
      assert.equal(normaliseOrder({ id: { $: '801' }, name: { $: 'web-01' } }).label, 'web-01');
      for (const bad of [
        { $: '801', other: '802' },
        { $: { $: '801' } },
        { $: 1.5 },
        { $: null },
        { $: '' },
        { $: true },
      ]) {
        assert.throws(
          () => normaliseOrder({ id: bad, server_id: '802', name: 'x' }),
          (error: unknown) => error instanceof ApiError && error.kind === 'badResponse',
          JSON.stringify(bad),
        );
      }
    });

    it('invoices follow the same rule', () => {
      const { invoices, skipped } = normaliseInvoiceList([
        { id: { value: 'A' }, number: 'INV-2', total: 1 },
        { id: 'INV-2', total: 2 },
      ]);
      assert.deepEqual(
        invoices.map((i) => i.id),
        ['INV-2'],
      );
      assert.equal(skipped, 1);
    });
  });

  describe('two orders with one id', () => {
    it('keeps both, marks both, and hands neither out by id', () => {
      const list = new OrderList();
      list.replace([order('1', 'one'), order('2', 'web-A'), order('3', 'three'), order('2', 'db-B')]);
      assert.deepEqual(
        list.all.map((o) => [o.id, o.label, o.duplicateId]),
        [
          ['1', 'one', undefined],
          ['2', 'web-A', { index: 0, count: 2 }],
          ['3', 'three', undefined],
          ['2', 'db-B', { index: 1, count: 2 }],
        ],
      );
      assert.equal(list.get('2'), undefined);
      assert.equal(list.isAmbiguous('2'), true);
      assert.equal(list.get('1')?.label, 'one');
      assert.equal(list.isAmbiguous('1'), false);
      assert.deepEqual(list.ambiguousIds, ['2']);
      // A single-order answer for that id cannot say which of the two it is: it changes neither.
      assert.equal(list.updateSummary({ ...order('2', 'renamed'), state: 'stopped' }), false);
      assert.deepEqual(
        list.all.map((o) => o.label),
        ['one', 'web-A', 'three', 'db-B'],
      );
    });

    it('takes the same entry sent twice (pages that overlap) as one order', () => {
      const list = new OrderList();
      list.replace([order('1', 'one'), order('2', 'two'), order('2', 'two')]);
      assert.deepEqual(
        list.all.map((o) => [o.id, o.duplicateId]),
        [
          ['1', undefined],
          ['2', undefined],
        ],
      );
      assert.equal(list.get('2')?.label, 'two');
    });

    it('reports a change when an id becomes ambiguous or clear again', () => {
      const list = new OrderList();
      list.replace([order('1', 'one'), order('2', 'two')]);
      assert.ok(list.replace([order('1', 'one'), order('1', 'uno'), order('2', 'two')]));
      assert.equal(list.replace([order('1', 'one'), order('1', 'uno'), order('2', 'two')]), undefined);
      const change = list.replace([order('1', 'one'), order('1', 'eins'), order('2', 'two')]);
      assert.deepEqual(change, { ids: ['1'] });
      assert.ok(list.replace([order('1', 'one'), order('2', 'two')]));
      assert.equal(list.isAmbiguous('1'), false);
    });
  });

  describe('the store acts on no ambiguous id', () => {
    let clock: FakeClock;
    let store: Store;
    let api: FakeApi;

    beforeEach(async () => {
      clock = new FakeClock();
      ({ store, api } = storeOnFake(clock));
      await store.keyChanged();
    });
    afterEach(() => store.dispose());

    it('the list of issue 21: db-B is shown as order 2, web-A is not, and Stop on 2 reaches only db-B', async () => {
      api.orders = normaliseOrderList(TAKEN_ID).orders.map((o) => o);
      await store.refresh(['orders'], 'user');
      assert.deepEqual(
        store.orders.all.map((o) => [o.id, o.label]),
        [['2', 'db-B']],
      );
      await store.runAction('2', 'stop');
      assert.deepEqual(
        api.callsTo('orderAction').map((c) => c.id),
        ['2'],
      );
    });

    it('refuses an action on an ambiguous id with a typed error, before anything is sent', async () => {
      api.orders = [order('1', 'web-A'), order('1', 'db-B'), order('3', 'three')];
      await store.refresh(['orders'], 'user');
      assert.equal(store.orders.all.length, 3);
      for (const action of ['start', 'stop', 'restart', 'reinstall'] as const) {
        await assert.rejects(store.runAction('1', action), isAmbiguousRefusal);
      }
      assert.equal(api.callsTo('orderAction').length, 0);
      await store.runAction('3', 'stop');
      assert.equal(api.callsTo('orderAction').length, 1);
    });

    it('refuses the details of an ambiguous id without a request, and caches none', async () => {
      api.orders = [order('1', 'web-A'), order('1', 'db-B')];
      await store.refresh(['orders'], 'user');
      await assert.rejects(store.orderDetails('1'), isAmbiguousRefusal);
      assert.equal(api.callsTo('getOrder').length, 0);
    });

    it('abandons an action whose id became ambiguous, and lets no answer about that id settle or change it', async () => {
      api.orders = [order('1', 'web-A'), order('3', 'three')];
      await store.refresh(['orders'], 'user');
      const settled: string[] = [];
      store.onDidSettle((s) => settled.push(plain(s.order.label)));
      await store.runAction('1', 'stop');
      // The next list has a second order 1: nobody can tell which of the two the stop reached.
      api.orders = [
        order('1', 'web-A'),
        order('1', 'db-B', { id: '1', name: 'db-B', status: 'stopped' }),
        order('3', 'three'),
      ];
      await store.refresh(['orders'], 'user');
      const polls = api.callsTo('getOrder').length;
      for (let i = 0; i < 30; i++) await clock.advance(1_000);
      assert.deepEqual(settled, []);
      assert.equal(api.callsTo('getOrder').length, polls, 'no poll of an ambiguous id');
      assert.deepEqual(
        store.orders.all.map((o) => o.label),
        ['web-A', 'db-B', 'three'],
      );
    });
  });
});
