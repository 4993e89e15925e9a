import assert from 'node:assert/strict';
import { type Order, type OrderState } from '../../src/api/models';
import { findOrder, fits, listOrders, MAX_LISTED_ORDERS, parseActionInput } from '../../src/lm/toolData';
import { serverText } from '../../src/util/serverText';

const order = (id: string, label: string, state: OrderState): Order => ({
  id,
  label: serverText(label),
  state,
  raw: { secret: 'x' },
});

describe("what the assistant's tools answer (unit)", () => {
  it('refuses reinstall and unknown actions, and keeps ids exact', () => {
    assert.deepEqual(parseActionInput({ orderId: '7', action: 'reinstall' }), { refused: 'reinstall' });
    assert.deepEqual(parseActionInput({ orderId: '7', action: 'delete' }), { refused: 'action' });
    assert.deepEqual(parseActionInput({ action: 'stop' }), { refused: 'orderId' });
    assert.deepEqual(parseActionInput({ orderId: 7, action: 'stop' }), { orderId: '7', action: 'stop' });
    assert.deepEqual(parseActionInput({ orderId: ' 7', action: 'stop' }), { orderId: ' 7', action: 'stop' });
  });

  it('finds an order by exact id, or by a name only one order has; never a near match', () => {
    const orders = [order('1', 'web', 'running'), order('2', 'db', 'stopped'), order('3', 'db', 'running')];
    const byId = (id: string): Order | undefined => orders.find((o) => o.id === id);
    assert.equal(findOrder(orders, byId, '2')?.id, '2');
    assert.equal(findOrder(orders, byId, 'web')?.id, '1');
    assert.equal(findOrder(orders, byId, 'db'), undefined, 'two orders have that name');
    assert.equal(findOrder(orders, byId, 'WEB'), undefined);
    assert.equal(findOrder(orders, byId, '02'), undefined);
  });

  it('lets an action through only where it fits, and never while another runs', () => {
    assert.equal(fits(order('1', 'a', 'stopped'), 'start', undefined), true);
    assert.equal(fits(order('1', 'a', 'running'), 'start', undefined), false);
    assert.equal(fits(order('1', 'a', 'running'), 'stop', 'restart'), false);
  });

  it('lists bounded fields only (no raw payload) and at most the bound', () => {
    const many = Array.from({ length: MAX_LISTED_ORDERS + 5 }, (_, i) => order(String(i), 'x'.repeat(500), 'running'));
    const listed = listOrders(many, () => undefined);
    assert.equal(listed.listed, MAX_LISTED_ORDERS);
    assert.equal(listed.total, MAX_LISTED_ORDERS + 5);
    assert.ok((listed.orders[0]?.name.length ?? 0) <= 120);
    assert.ok(!JSON.stringify(listed).includes('secret'));
    assert.equal(listOrders(many, () => undefined, 'stopped').matching, 0);
  });
});
