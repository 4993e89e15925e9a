import assert from 'node:assert/strict';
import { type Order, type OrderAction, type OrderState } from '../../src/api/models';
import { arrangeOrders, groupKey, groupOrders, parseArrangement, stateGroup } from '../../src/views/orders/filter';
import { serverText } from '../../src/util/serverText';

const order = (id: string, label: string, state: OrderState): Order => ({
  id,
  label: serverText(label),
  state,
  raw: {},
});
const none = (): OrderAction | undefined => undefined;

describe('filter and sort of the Orders view (unit)', () => {
  const list = [
    order('1', 'web-10', 'running'),
    order('2', 'db', 'stopped'),
    order('3', 'Web-2', 'running'),
    order('4', 'mail', 'suspended'),
    order('5', 'cache', 'busy'),
    order('6', 'odd', 'unknown'),
  ];
  const ids = (orders: readonly Order[]): string[] => orders.map((o) => o.id);

  it("keeps the server's order and every order by default", () => {
    const arranged = arrangeOrders(list, { filter: 'all', sort: 'server' }, none);
    assert.deepEqual(ids(arranged.shown), ['1', '2', '3', '4', '5', '6']);
    assert.equal(arranged.total, 6);
  });

  it('filters by state group: running, stopped, busy (an action under way counts), other', () => {
    const pending = (id: string): OrderAction | undefined => (id === '2' ? 'start' : undefined);
    assert.deepEqual(ids(arrangeOrders(list, { filter: 'running', sort: 'server' }, pending).shown), ['1', '3']);
    assert.deepEqual(ids(arrangeOrders(list, { filter: 'stopped', sort: 'server' }, pending).shown), []);
    assert.deepEqual(ids(arrangeOrders(list, { filter: 'busy', sort: 'server' }, pending).shown), ['2', '5']);
    assert.deepEqual(ids(arrangeOrders(list, { filter: 'other', sort: 'server' }, pending).shown), ['4', '6']);
    assert.equal(stateGroup('suspended'), 'other');
  });

  it('sorts by name as people read it (numbers, case) and by state, stably', () => {
    assert.deepEqual(ids(arrangeOrders(list, { filter: 'all', sort: 'name' }, none).shown), [
      '5',
      '2',
      '4',
      '6',
      '3',
      '1',
    ]);
    assert.deepEqual(ids(arrangeOrders(list, { filter: 'all', sort: 'state' }, none).shown), [
      '1',
      '3',
      '5',
      '2',
      '4',
      '6',
    ]);
  });

  it('never changes the list it was given', () => {
    const copy = [...list];
    arrangeOrders(list, { filter: 'running', sort: 'name' }, none);
    assert.deepEqual(list, copy);
  });

  it('reads back a remembered arrangement, ignoring anything it does not know', () => {
    const fallback = { filter: 'all', sort: 'server', group: 'none' };
    assert.deepEqual(parseArrangement({ filter: 'stopped', sort: 'name', group: 'plan' }), {
      filter: 'stopped',
      sort: 'name',
      group: 'plan',
    });
    assert.deepEqual(parseArrangement({ filter: 'evil', sort: 42, group: 'evil' }), fallback);
    assert.deepEqual(parseArrangement('junk'), fallback);
    assert.deepEqual(parseArrangement(undefined), fallback);
  });

  it('groups the arranged orders, keeping their order inside each group, those without a value last', () => {
    const placed = [
      { ...order('1', 'a', 'running'), plan: serverText('VPS M'), raw: { location: 'Helsinki' } },
      { ...order('2', 'b', 'stopped'), raw: { region: 'Ashburn' } },
      { ...order('3', 'c', 'running'), plan: serverText('VPS L'), raw: { location: 'Helsinki' } },
      { ...order('4', 'd', 'busy'), plan: serverText('VPS M'), raw: {} },
    ];
    const grouped = (by: Parameters<typeof groupKey>[1], label?: (id: string) => string | undefined) =>
      groupOrders(placed, by, (o) => groupKey(o, by, undefined, label?.(o.id))).map(
        (g) => `${g.key}:${ids(g.orders).join()}`,
      );
    assert.deepEqual(grouped('state'), ['running:1,3', 'busy:4', 'stopped:2']);
    assert.deepEqual(grouped('plan'), ['VPS L:3', 'VPS M:1,4', ':2']);
    assert.deepEqual(grouped('location'), ['Ashburn:2', 'Helsinki:1,3', ':4']);
    assert.deepEqual(
      grouped('label', (id) => (id === '2' ? 'prod' : undefined)),
      ['prod:2', ':1,3,4'],
    );
    const renewing = (id: string, day: string): Order => ({
      ...order(id, id, 'running'),
      renewal: { date: { kind: 'day', day } },
    });
    assert.deepEqual(
      groupOrders(
        [renewing('x', '2026-05-02'), order('y', 'y', 'running'), renewing('z', '2026-03-30')],
        'renewal',
        (o) => groupKey(o, 'renewal', undefined, undefined),
      ).map((g) => `${g.key}:${ids(g.orders).join()}`),
      ['2026-03:z', '2026-05:x', ':y'],
    );
  });
});
