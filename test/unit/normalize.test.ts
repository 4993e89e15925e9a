import assert from 'node:assert/strict';
import { normaliseAccount } from '../../src/api/normalize/account';
import { normaliseBalance } from '../../src/api/normalize/balance';
import { normaliseInvoice, normaliseInvoiceList } from '../../src/api/normalize/invoice';
import { normaliseOrder, normaliseOrderList, normaliseStateWord } from '../../src/api/normalize/order';
import { asNumber } from '../../src/api/normalize/read';
import { findList } from '../../src/api/normalize/wrappers';

describe('normalisers (unit)', () => {
  describe('orders', () => {
    const listShapes: Array<[string, unknown]> = [
      ['a bare array', [{ id: 1, name: 'a' }, { id: 2, name: 'b' }]],
      ['data', { data: [{ id: 1, name: 'a' }, { id: 2, name: 'b' }], meta: { total: 2 } }],
      ['items', { items: [{ id: 1, name: 'a' }, { id: 2, name: 'b' }] }],
      ['results', { count: 2, results: [{ id: 1, name: 'a' }, { id: 2, name: 'b' }] }],
      ['orders', { orders: [{ id: 1, name: 'a' }, { id: 2, name: 'b' }] }],
      ['nested data.items', { data: { items: [{ id: 1, name: 'a' }, { id: 2, name: 'b' }] } }],
      ['an unusual sole array key', { page: 1, servers_list: [{ id: 1, name: 'a' }, { id: 2, name: 'b' }] }],
    ];
    for (const [name, body] of listShapes) {
      it(`reads a list as ${name}`, () => {
        const { orders, skipped } = normaliseOrderList(body);
        assert.deepEqual(orders.map((o) => [o.id, o.label]), [['1', 'a'], ['2', 'b']]);
        assert.equal(skipped, 0);
      });
    }

    it('takes ids as numbers or strings and keeps them as strings', () => {
      assert.equal(normaliseOrder({ id: 42 }).id, '42');
      assert.equal(normaliseOrder({ id: 'srv-7f3a' }).id, 'srv-7f3a');
      assert.equal(normaliseOrder({ order_id: 9 }).id, '9');
      assert.equal(normaliseOrder({ uuid: '0b6e…' }).id, '0b6e…');
      assert.equal(normaliseOrder({ orderId: 10 }).id, '10');
    });

    it('finds a label in the best name-like field and falls back to the id', () => {
      assert.equal(normaliseOrder({ id: 1, name: 'web', hostname: 'h' }).label, 'web');
      assert.equal(normaliseOrder({ id: 1, hostname: 'vps1.example.net' }).label, 'vps1.example.net');
      assert.equal(normaliseOrder({ id: 1, display_name: 'Shop' }).label, 'Shop');
      assert.equal(normaliseOrder({ id: 1, displayName: 'Shop' }).label, 'Shop');
      assert.equal(normaliseOrder({ id: 1 }).label, '#1');
    });

    const states: Array<[unknown, string]> = [
      [{ status: 'running' }, 'running'], [{ status: 'Active' }, 'running'], [{ state: 'online' }, 'running'],
      [{ power_status: 'on' }, 'running'], [{ powerStatus: 'POWERED_ON' }, 'running'],
      [{ status: 'stopped' }, 'stopped'], [{ state: 'offline' }, 'stopped'], [{ power_status: 'off' }, 'stopped'],
      [{ status: 'Power Off' }, 'stopped'], [{ status: 'shut-off' }, 'stopped'],
      [{ status: 'starting' }, 'busy'], [{ status: 'reinstalling' }, 'busy'], [{ state: 'pending' }, 'busy'],
      [{ status: 'in progress' }, 'busy'], [{ power_status: 'rebooting' }, 'busy'],
      [{ status: 'suspended' }, 'suspended'], [{ status: 'blocked' }, 'suspended'],
      [{ status: { name: 'running', id: 3 } }, 'running'], [{ status: { value: 'stopped' } }, 'stopped'],
      [{ running: true }, 'running'], [{ is_running: false }, 'stopped'],
      [{ status: 'quantum-superposition' }, 'unknown'], [{}, 'unknown'], [{ status: 42 }, 'unknown'],
    ];
    for (const [fields, state] of states) {
      it(`maps ${JSON.stringify(fields)} to ${state}`, () => {
        assert.equal(normaliseOrder({ id: 1, ...(fields as object) }).state, state);
      });
    }

    it('keeps the server status text and the raw object', () => {
      const raw = { id: 1, name: 'n', status: 'Reinstalling', extra: { deep: true } };
      const order = normaliseOrder(raw);
      assert.equal(order.statusText, 'Reinstalling');
      assert.deepEqual(order.raw, raw);
    });

    it('reads address and plan', () => {
      const order = normaliseOrder({ id: 1, ip_address: '203.0.113.9', plan: { name: 'VPS S', price: 5 } });
      assert.equal(order.address, '203.0.113.9');
      assert.equal(order.plan, 'VPS S');
    });

    it('unwraps a single order under data/order but not an order that has a nested server object', () => {
      assert.equal(normaliseOrder({ data: { id: 5, name: 'x' } }).id, '5');
      assert.equal(normaliseOrder({ order: { id: 6 } }).id, '6');
      const order = normaliseOrder({ id: 7, name: 'outer', server: { id: 99, name: 'inner' } });
      assert.equal(order.id, '7');
      assert.equal(order.label, 'outer');
    });

    it('skips entries that are not orders and counts them', () => {
      const { orders, skipped } = normaliseOrderList([{ id: 1 }, 'junk', null, { name: 'no id' }, { id: 2 }]);
      assert.deepEqual(orders.map((o) => o.id), ['1', '2']);
      assert.equal(skipped, 3);
    });

    it('names what it expected when the shape cannot be read', () => {
      assert.throws(() => normaliseOrderList({ message: 'hello' }), (error: Error & { kind: string }) => {
        assert.equal(error.kind, 'badResponse');
        assert.match(error.message, /list of orders/);
        assert.match(error.message, /"message"/);
        return true;
      });
      assert.throws(() => normaliseOrderList('text'), { kind: 'badResponse' });
      assert.throws(() => normaliseOrder(null), /order object/);
      assert.throws(() => normaliseOrder({ name: 'x' }), /id field/);
    });

    it('normalises state words alone', () => {
      assert.equal(normaliseStateWord(' RUNNING '), 'running');
      assert.equal(normaliseStateWord('powered-off'), 'stopped');
      assert.equal(normaliseStateWord(''), 'unknown');
    });
  });

  describe('balance', () => {
    const shapes: Array<[string, unknown, number, string | undefined]> = [
      ['a bare number', 42.5, 42.5, undefined],
      ['a numeric string', '42.50', 42.5, undefined],
      ['a money string', '42.50 EUR', 42.5, 'EUR'],
      ['a symbol string', '€42.50', 42.5, 'EUR'],
      ['balance + currency', { balance: 42.5, currency: 'EUR' }, 42.5, 'EUR'],
      ['amount as string', { amount: '42.50', currency: 'usd' }, 42.5, 'USD'],
      ['data.credit', { data: { credit: '42.50', currency_code: 'GBP' } }, 42.5, 'GBP'],
      ['nested balance object', { balance: { amount: 10, currency: 'CHF' } }, 10, 'CHF'],
      ['cents', { amount_cents: 4250, currency: 'EUR' }, 42.5, 'EUR'],
      ['a decimal comma', { balance: '42,50', currency: 'EUR' }, 42.5, 'EUR'],
      ['negative', { balance: -3.2, currency: 'EUR' }, -3.2, 'EUR'],
      ['camelCase', { availableBalance: 7, currencyCode: 'JPY' }, 7, 'JPY'],
    ];
    for (const [name, body, amount, currency] of shapes) {
      it(`reads ${name}`, () => {
        const balance = normaliseBalance(body);
        assert.equal(balance.amount, amount);
        assert.equal(balance.currency, currency);
      });
    }

    it('drops a currency that is not an ISO code', () => {
      assert.equal(normaliseBalance({ balance: 1, currency: 'credits' }).currency, undefined);
    });

    it('rejects shapes without an amount', () => {
      assert.throws(() => normaliseBalance({ hello: 'world' }), /Expected a balance/);
      assert.throws(() => normaliseBalance(null), { kind: 'badResponse' });
      assert.throws(() => normaliseBalance('lots'), { kind: 'badResponse' });
    });
  });

  describe('account', () => {
    it('reads plain, wrapped and split-name accounts', () => {
      assert.deepEqual(
        (({ id, name, email }) => ({ id, name, email }))(normaliseAccount({ id: 4242, name: 'Ada', email: 'a@x' })),
        { id: '4242', name: 'Ada', email: 'a@x' },
      );
      assert.equal(normaliseAccount({ user: { id: 1, first_name: 'Ada', last_name: 'Lovelace' } }).name, 'Ada Lovelace');
      assert.equal(normaliseAccount({ data: { email: 'x@y' } }).email, 'x@y');
      assert.equal(normaliseAccount({ account: { id: 'acc_1', company: 'ACME' } }).name, 'ACME');
    });

    it('rejects a non-object', () => {
      assert.throws(() => normaliseAccount([1, 2]), { kind: 'badResponse' });
    });
  });

  describe('invoices', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');

    it('reads a typical invoice', () => {
      const invoice = normaliseInvoice({
        id: 42, number: 'INV-42', date: '2026-10-01', due_date: '2026-10-15', amount: '19.90', currency: 'eur',
        status: 'Paid', url: 'https://billing.example.com/i/42',
      }, now);
      assert.equal(invoice.id, '42');
      assert.equal(invoice.number, 'INV-42');
      assert.equal(invoice.amount, 19.9);
      assert.equal(invoice.currency, 'EUR');
      assert.equal(invoice.status, 'paid');
      assert.equal(invoice.statusText, 'Paid');
      assert.equal(invoice.url, 'https://billing.example.com/i/42');
    });

    it('marks an unpaid invoice past its due date as overdue', () => {
      assert.equal(normaliseInvoice({ id: 1, status: 'unpaid', due_date: '2026-11-01' }, now).status, 'overdue');
      assert.equal(normaliseInvoice({ id: 1, status: 'unpaid', due_date: '2026-12-01' }, now).status, 'unpaid');
      assert.equal(normaliseInvoice({ id: 1, status: 'overdue' }, now).status, 'overdue');
      assert.equal(normaliseInvoice({ id: 1, paid: true }, now).status, 'paid');
      assert.equal(normaliseInvoice({ id: 1, status: 'void' }, now).status, 'cancelled');
      assert.equal(normaliseInvoice({ id: 1 }, now).status, 'unknown');
    });

    it('keeps only web links', () => {
      assert.equal(normaliseInvoice({ id: 1, url: 'javascript:alert(1)' }, now).url, undefined);
      assert.equal(normaliseInvoice({ id: 1, pdf_url: 'file:///etc/passwd' }, now).url, undefined);
      assert.equal(normaliseInvoice({ id: 1, link: 'command:workbench.action.quit' }, now).url, undefined);
      assert.equal(normaliseInvoice({ id: 1, link: 'http://127.0.0.1/i/1' }, now).url, 'http://127.0.0.1/i/1');
    });

    it('reads dates given as epoch seconds and amounts given as objects', () => {
      const invoice = normaliseInvoice({ id: 1, created: 1_760_000_000, total: { amount: 5, currency: 'usd' } }, now);
      assert.equal(invoice.date, '2025-10-09');
      assert.equal(invoice.amount, 5);
      assert.equal(invoice.currency, 'USD');
    });

    it('reads lists in several wrappers', () => {
      assert.equal(normaliseInvoiceList({ invoices: [{ id: 1 }, { id: 2 }] }, now).invoices.length, 2);
      assert.equal(normaliseInvoiceList([{ number: 'A-1' }], now).invoices[0]?.id, 'A-1');
      assert.throws(() => normaliseInvoiceList({ total: 3 }, now), /list of invoices/);
    });
  });

  describe('readers', () => {
    it('parses numbers in the forms servers send', () => {
      assert.equal(asNumber('1,234.50'), 1234.5);
      assert.equal(asNumber('1.234,50'), 1234.5);
      assert.equal(asNumber('1,234'), 1234);
      assert.equal(asNumber('42,5'), 42.5);
      assert.equal(asNumber(' -7 '), -7);
      assert.equal(asNumber('abc'), undefined);
      assert.equal(asNumber(Number.NaN), undefined);
      assert.equal(asNumber(''), undefined);
    });

    it('does not take an array of another kind when several are present', () => {
      assert.equal(findList({ tags: ['a'], flags: ['b'] }, [], ['id']), undefined);
    });
  });
});
