import assert from 'node:assert/strict';
import { type Order, type OrderAction, type OrderState } from '../../src/api/models';
import { arrangeOrders, parseArrangement, stateGroup } from '../../src/views/orders/filter';
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
    assert.deepEqual(parseArrangement({ filter: 'stopped', sort: 'name' }), { filter: 'stopped', sort: 'name' });
    assert.deepEqual(parseArrangement({ filter: 'evil', sort: 42 }), { filter: 'all', sort: 'server' });
    assert.deepEqual(parseArrangement('junk'), { filter: 'all', sort: 'server' });
    assert.deepEqual(parseArrangement(undefined), { filter: 'all', sort: 'server' });
  });
});
