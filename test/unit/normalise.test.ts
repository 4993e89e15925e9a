import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { ApiError } from '../../src/api/errors';
import { normaliseAccount } from '../../src/api/normalise/account';
import { normaliseBalance } from '../../src/api/normalise/balance';
import { normaliseInvoice, normaliseInvoiceList } from '../../src/api/normalise/invoice';
import { normaliseOrder, normaliseOrderList, normaliseStateWord } from '../../src/api/normalise/order';
import { type FieldTrace } from '../../src/api/normalise/read';
import { readRenewal } from '../../src/api/normalise/renewal/readRenewal';
import { findList } from '../../src/api/normalise/wrappers';
import { names } from '../../src/api/normalise/read';
import { fixedZone } from '../../src/util/calendar';
import { RUNAWAY_MS } from './helpers/catastrophe';

describe('normalisers (unit)', () => {
  describe('orders', () => {
    const listShapes: Array<[string, unknown]> = [
      [
        'a bare array',
        [
          { id: 1, name: 'a' },
          { id: 2, name: 'b' },
        ],
      ],
      [
        'data',
        {
          data: [
            { id: 1, name: 'a' },
            { id: 2, name: 'b' },
          ],
          meta: { total: 2 },
        },
      ],
      [
        'items',
        {
          items: [
            { id: 1, name: 'a' },
            { id: 2, name: 'b' },
          ],
        },
      ],
      [
        'results',
        {
          count: 2,
          results: [
            { id: 1, name: 'a' },
            { id: 2, name: 'b' },
          ],
        },
      ],
      [
        'orders',
        {
          orders: [
            { id: 1, name: 'a' },
            { id: 2, name: 'b' },
          ],
        },
      ],
      [
        'nested data.items',
        {
          data: {
            items: [
              { id: 1, name: 'a' },
              { id: 2, name: 'b' },
            ],
          },
        },
      ],
      [
        'an unusual sole array key',
        {
          page: 1,
          servers_list: [
            { id: 1, name: 'a' },
            { id: 2, name: 'b' },
          ],
        },
      ],
    ];
    for (const [name, body] of listShapes) {
      it(`reads a list as ${name}`, () => {
        const { orders, skipped } = normaliseOrderList(body);
        assert.deepEqual(
          orders.map((o) => [o.id, o.label]),
          [
            ['1', 'a'],
            ['2', 'b'],
          ],
        );
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
      [{ status: 'running' }, 'running'],
      [{ status: 'Active' }, 'running'],
      [{ state: 'online' }, 'running'],
      [{ power_status: 'on' }, 'running'],
      [{ powerStatus: 'POWERED_ON' }, 'running'],
      [{ status: 'stopped' }, 'stopped'],
      [{ state: 'offline' }, 'stopped'],
      [{ power_status: 'off' }, 'stopped'],
      [{ status: 'Power Off' }, 'stopped'],
      [{ status: 'shut-off' }, 'stopped'],
      [{ status: 'starting' }, 'busy'],
      [{ status: 'reinstalling' }, 'busy'],
      [{ state: 'pending' }, 'busy'],
      [{ status: 'in progress' }, 'busy'],
      [{ power_status: 'rebooting' }, 'busy'],
      [{ status: 'suspended' }, 'suspended'],
      [{ status: 'blocked' }, 'suspended'],
      [{ status: { name: 'running', id: 3 } }, 'running'],
      [{ status: { value: 'stopped' } }, 'stopped'],
      [{ running: true }, 'running'],
      [{ is_running: false }, 'stopped'],
      [{ status: 'quantum-superposition' }, 'unknown'],
      [{}, 'unknown'],
      [{ status: 42 }, 'unknown'],
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
      assert.deepEqual(
        orders.map((o) => o.id),
        ['1', '2'],
      );
      assert.equal(skipped, 3);
    });

    it('names what it expected when the shape cannot be read', () => {
      assert.throws(
        () => normaliseOrderList({ message: 'hello' }),
        (error: Error & { kind: string }) => {
          assert.equal(error.kind, 'badResponse');
          assert.match(error.message, /list of orders/);
          assert.match(error.message, /"message"/);
          return true;
        },
      );
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

  describe('money: one reader for balances, invoices and renewal prices', () => {
    const read = (text: string): Array<number | string | undefined> => {
      let balance: number | string;
      try {
        balance = normaliseBalance({ balance: text }).amount;
      } catch {
        balance = 'refused';
      }
      const invoice = normaliseInvoice({ id: 1, total: text }).amount;
      const renewal = readRenewal({ recurringamount: text });
      return [balance, invoice, renewal?.price === undefined ? renewal?.priceProblem : renewal.price / 10_000];
    };

    it('reads "1,234" the same way everywhere: refused as ambiguous, never a thousand in one place', () => {
      assert.deepEqual(read('1,234'), ['refused', undefined, 'ambiguous']);
    });

    it('reads "1\'234.50" and "1.234,50" the same way everywhere', () => {
      assert.deepEqual(read("1'234.50"), [1234.5, 1234.5, 1234.5]);
      assert.deepEqual(read('1.234,50'), [1234.5, 1234.5, 1234.5]);
      assert.deepEqual(read('12,90 EUR'), [12.9, 12.9, 12.9]);
    });

    it('divides minor units by the currency’s own decimals: JPY none, KWD three', () => {
      assert.equal(normaliseBalance({ balance_cents: 1500, currency: 'JPY' }).amount, 1500);
      assert.equal(normaliseBalance({ balance_minor: 1500, currency: 'KWD' }).amount, 1.5);
      assert.equal(normaliseBalance({ balance: { amount_minor: 1500, currency: 'JPY' } }).amount, 1500);
      assert.equal(normaliseInvoice({ id: 1, amount_cents: 1500, currency: 'JPY' }).amount, 1500);
      assert.equal(normaliseInvoice({ id: 1, amount_minor: 1500, currency: 'KWD' }).amount, 1.5);
      assert.equal(readRenewal({ price_cents: 1500, currency: 'JPY' })?.price, 1500 * 10_000);
      assert.equal(normaliseBalance({ balance_cents: 1999, currency: 'EUR' }).amount, 19.99);
    });
  });

  describe('invoice dates: one reader, in the user’s zone', () => {
    const script = (body: string): string => `
      const { normaliseInvoice } = require(${JSON.stringify(require.resolve('../../src/api/normalise/invoice'))});
      const now = Date.UTC(2026, 10, 24, 12);
      process.stdout.write(JSON.stringify(${body}));`;
    const inZone = (tz: string, body: string): unknown =>
      JSON.parse(
        execFileSync(process.execPath, ['-e', script(body)], { env: { ...process.env, TZ: tz }, encoding: 'utf8' }),
      );

    it('never reads a due date through new Date(): "Dec 3, 2026" and "03.12.2026" are not read (TZ=Asia/Tokyo)', () => {
      const dues = `['Dec 3, 2026', '03.12.2026', '2026-12-03', 1796328000].map((due) =>
        normaliseInvoice({ id: 1, due_date: due, status: 'unpaid' }, now).dueDate ?? null)`;
      assert.deepEqual(inZone('Asia/Tokyo', dues), [null, null, '2026-12-03', '2026-12-04']);
      assert.deepEqual(inZone('America/New_York', dues), [null, null, '2026-12-03', '2026-12-03']);
    });

    it('places an instant on the user’s calendar, and says overdue from the user’s today', () => {
      const due = `normaliseInvoice({ id: 1, due_at: '2026-11-23T20:00:00Z', status: 'unpaid' }, now)`;
      assert.deepEqual(inZone('Asia/Tokyo', `[${due}.dueDate, ${due}.status]`), ['2026-11-24', 'unpaid']);
      assert.deepEqual(inZone('UTC', `[${due}.dueDate, ${due}.status]`), ['2026-11-23', 'overdue']);
    });
  });

  describe('account', () => {
    it('reads plain, wrapped and split-name accounts', () => {
      assert.deepEqual(
        (({ id, name, email }) => ({ id, name, email }))(normaliseAccount({ id: 4242, name: 'Ada', email: 'a@x' })),
        { id: '4242', name: 'Ada', email: 'a@x' },
      );
      assert.equal(
        normaliseAccount({ user: { id: 1, first_name: 'Ada', last_name: 'Lovelace' } }).name,
        'Ada Lovelace',
      );
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
      const invoice = normaliseInvoice(
        {
          id: 42,
          number: 'INV-42',
          date: '2026-10-01',
          due_date: '2026-10-15',
          amount: '19.90',
          currency: 'eur',
          status: 'Paid',
          url: 'https://billing.example.com/i/42',
        },
        now,
      );
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

  describe('why a body could not be read', () => {
    const reasonOf = (read: () => unknown): unknown => {
      try {
        read();
      } catch (error) {
        assert.ok(error instanceof ApiError);
        assert.equal(error.kind, 'badResponse');
        return error.reason;
      }
      assert.fail('expected a failure');
    };

    it('names what was expected and the shape found, as data for the UI to word', () => {
      assert.deepEqual(
        reasonOf(() => normaliseBalance({ hello: 'world' })),
        {
          rule: 'unexpectedBody',
          expected: 'balance',
          got: { type: 'object', keys: ['hello'] },
        },
      );
      assert.deepEqual(
        reasonOf(() => normaliseAccount(undefined)),
        {
          rule: 'unexpectedBody',
          expected: 'account',
          got: { type: 'empty' },
        },
      );
      assert.deepEqual(
        reasonOf(() => normaliseOrderList({ total: 3 })),
        {
          rule: 'unexpectedBody',
          expected: 'orderList',
          got: { type: 'object', keys: ['total'] },
        },
      );
      assert.deepEqual(
        reasonOf(() => normaliseInvoiceList('no')),
        {
          rule: 'unexpectedBody',
          expected: 'invoiceList',
          got: { type: 'value', typeName: 'string' },
        },
      );
      assert.deepEqual(
        reasonOf(() => normaliseOrder(null)),
        {
          rule: 'unexpectedBody',
          expected: 'order',
          got: { type: 'null' },
        },
      );
      assert.deepEqual(
        reasonOf(() => normaliseOrder({ name: 'web' })),
        { rule: 'missingId', what: 'order' },
      );
      assert.deepEqual(
        reasonOf(() => normaliseInvoice({ total: 1 })),
        { rule: 'missingId', what: 'invoice' },
      );
    });

    it('keeps at most four key names, each cut to 30 characters, and says the same in English for the log', () => {
      const body = { ['k'.repeat(40)]: 1, b: 2, c: 3, d: 4, e: 5 };
      assert.deepEqual(
        reasonOf(() => normaliseAccount([])),
        {
          rule: 'unexpectedBody',
          expected: 'account',
          got: { type: 'array' },
        },
      );
      assert.deepEqual(
        reasonOf(() => normaliseBalance(body)),
        {
          rule: 'unexpectedBody',
          expected: 'balance',
          got: { type: 'object', keys: ['k'.repeat(30), 'b', 'c', 'd'] },
        },
      );
      assert.throws(
        () => normaliseBalance(body),
        new RegExp(`Expected a balance .*, got an object with "${'k'.repeat(30)}", "b", "c", "d"\\.$`),
      );
    });
  });

  describe('readers', () => {
    it('does not take an array of another kind when several are present', () => {
      assert.equal(findList({ tags: ['a'], flags: ['b'] }, [], names('id')), undefined);
    });
  });

  describe('conventions', () => {
    it('reads a resource document list: attributes plus the resource id', () => {
      const body = {
        data: [{ type: 'orders', id: '77', attributes: { name: 'web', status: 'running', ip: '203.0.113.7' } }],
      };
      const [order] = normaliseOrderList(body).orders;
      assert.deepEqual(
        [order?.id, order?.label, order?.state, order?.address],
        ['77', 'web', 'running', '203.0.113.7'],
      );
      assert.deepEqual(order?.raw, body.data[0]);
    });

    it("lets a resource's own id win over one inside its attributes", () => {
      assert.equal(normaliseOrder({ data: { type: 'servers', id: '5', attributes: { id: 9, name: 'x' } } }).id, '5');
      assert.equal(
        normaliseOrder({ object: 'server', attributes: { identifier: 'd3aa', uuid: 'd3aa-long' } }).id,
        'd3aa',
      );
    });

    it('reads resource documents for balance, account and invoices', () => {
      const balance = normaliseBalance({
        data: { type: 'balances', id: '1', attributes: { amount: '8.75', currency: 'EUR' } },
      });
      assert.deepEqual([balance.amount, balance.currency], [8.75, 'EUR']);
      const account = normaliseAccount({
        data: { type: 'users', id: '3', attributes: { first_name: 'Ada', last_name: 'L', email: 'a@x' } },
      });
      assert.deepEqual([account.id, account.name, account.email], ['3', 'Ada L', 'a@x']);
      const { invoices } = normaliseInvoiceList({
        data: [{ type: 'invoices', id: 'i1', attributes: { total: '5.00', status: 'Paid' } }],
      });
      assert.deepEqual([invoices[0]?.id, invoices[0]?.amount, invoices[0]?.status], ['i1', 5, 'paid']);
    });

    it('finds lists under nested and doubled wrappers', () => {
      const servers = [
        { id: 1, name: 'a' },
        { id: 2, name: 'b' },
      ];
      for (const body of [
        { result: { servers } },
        { response: { data: { items: servers } } },
        { servers: { server: servers } },
        { result: 'success', products: { product: servers } },
        { instances: servers, meta: { total: 2 } },
      ]) {
        assert.deepEqual(
          normaliseOrderList(body).orders.map((o) => o.id),
          ['1', '2'],
          JSON.stringify(body).slice(0, 40),
        );
      }
      assert.equal(
        normaliseInvoiceList({ billing_invoices: [{ id: 4 }], meta: { links: { next: '' } } }).invoices[0]?.id,
        '4',
      );
    });

    it('reads a Laravel paginator', () => {
      const body = {
        current_page: 1,
        data: [{ id: 1, name: 'a' }],
        first_page_url: '/x?page=1',
        next_page_url: '/x?page=2',
        last_page: 3,
        total: 6,
      };
      assert.deepEqual(
        normaliseOrderList(body).orders.map((o) => o.label),
        ['a'],
      );
      assert.equal(normaliseInvoiceList({ current_page: 1, data: [], last_page: 1, total: 0 }).invoices.length, 0);
    });

    it('does not take a named nested object for the order when the order has no id', () => {
      assert.throws(() => normaliseOrder({ name: 'web', server: { id: 99 } }), { kind: 'badResponse' });
      assert.throws(() => normaliseOrder({ name: 'web', image: { id: 99 } }), { kind: 'badResponse' });
      assert.equal(normaliseOrder({ status: 'success', data: { id: 3 } }).id, '3');
    });

    const states: Array<[object, string, string | undefined]> = [
      [{ status: 'active', power_status: 'stopped' }, 'stopped', 'stopped'],
      [{ status: 'active', power_status: 'running', server_status: 'ok' }, 'running', 'running'],
      [{ status: 'pending', power_status: 'running' }, 'busy', 'pending'],
      [{ status: 'active', power_status: 'running', server_status: 'locked' }, 'suspended', 'locked'],
      [{ status: 'installingbooting' }, 'busy', 'installingbooting'],
      [{ state: 'stopped in place' }, 'stopped', 'stopped in place'],
      [{ status: 'billing_suspension' }, 'suspended', 'billing_suspension'],
      [{ status: 'new' }, 'busy', 'new'],
      [{ status: 'Terminated' }, 'suspended', 'Terminated'],
      [{ status: 'halted' }, 'stopped', 'halted'],
      [{ status: 'shutting_down' }, 'busy', 'shutting_down'],
      [{ status: null, is_suspended: false }, 'unknown', undefined],
      [{ status: 'running', is_suspended: true }, 'suspended', 'suspended'],
      [{ status: 'Sparkling' }, 'unknown', 'Sparkling'],
      [{ attributes_state: 'x', current_state: 'offline' }, 'stopped', 'offline'],
    ];
    for (const [fields, state, text] of states) {
      it(`reads ${JSON.stringify(fields)} as ${state}`, () => {
        const order = normaliseOrder({ id: 1, ...fields });
        assert.deepEqual([order.state, order.statusText], [state, text]);
      });
    }

    const addresses: Array<[string, object, string | undefined, string[] | undefined]> = [
      [
        'public_net.ipv4.ip',
        { public_net: { ipv4: { ip: '203.0.113.4' }, ipv6: { ip: '2001:db8::/64' } } },
        '203.0.113.4',
        ['203.0.113.4'],
      ],
      [
        'networks.v4[] with type',
        {
          networks: {
            v4: [
              { ip_address: '10.1.2.3', type: 'private' },
              { ip_address: '203.0.113.9', type: 'public' },
            ],
            v6: [{ ip_address: '2001:db8::5', type: 'public' }],
          },
        },
        '203.0.113.9',
        ['10.1.2.3', '203.0.113.9', '2001:db8::5'],
      ],
      [
        'ipv4: [...]',
        { ipv4: ['203.0.113.1', '192.168.1.2'], ipv6: '2001:db8::1337/128' },
        '203.0.113.1',
        ['203.0.113.1', '192.168.1.2', '2001:db8::1337'],
      ],
      [
        'main_ip',
        { main_ip: '192.0.2.123', v6_main_ip: '', internal_ip: '10.0.0.1' },
        '192.0.2.123',
        ['192.0.2.123', '10.0.0.1'],
      ],
      ['public_ipv4', { public_ipv4: '198.51.100.3' }, '198.51.100.3', ['198.51.100.3']],
      [
        'public_ips[].address',
        { public_ip: null, public_ips: [{ address: '203.0.113.101', family: 'inet' }] },
        '203.0.113.101',
        ['203.0.113.101'],
      ],
      [
        'ip_addresses[].address with access',
        {
          ip_addresses: {
            ip_address: [
              { access: 'private', address: '10.0.0.0' },
              { access: 'public', address: '198.51.100.10' },
            ],
          },
        },
        '198.51.100.10',
        ['10.0.0.0', '198.51.100.10'],
      ],
      [
        'a default allocation',
        {
          relationships: {
            allocations: {
              data: [
                { attributes: { ip: '198.51.100.7', is_default: false } },
                { attributes: { ip: '203.0.113.218', is_default: true } },
              ],
            },
          },
        },
        '203.0.113.218',
        ['198.51.100.7', '203.0.113.218'],
      ],
      [
        'IPv6 first in the payload',
        { ips: ['2001:db8::9', '203.0.113.5', '203.0.113.5'] },
        '203.0.113.5',
        ['203.0.113.5', '2001:db8::9'],
      ],
      [
        'a domain when no IP',
        { dedicatedip: '', domain: 'shop.example.com' },
        'shop.example.com',
        ['shop.example.com'],
      ],
      ['not a bare hostname', { hostname: 'cli-srv-black' }, undefined, undefined],
      ['not an IPv6 network', { ipv6: '2001:db8::/64' }, undefined, undefined],
    ];
    for (const [name, fields, address, all] of addresses) {
      it(`reads the address from ${name}`, () => {
        const order = normaliseOrder({ id: 1, ...fields });
        assert.deepEqual([order.address, order.addresses], [address, all]);
      });
    }

    it('keeps at most sixteen addresses', () => {
      const ips = Array.from({ length: 40 }, (_, i) => `203.0.113.${i}`);
      assert.equal(normaliseOrder({ id: 1, ips }).addresses?.length, 16);
    });

    const balances: Array<[object, number, string | undefined]> = [
      [{ credit_balance: '12.5', currency_code: 'usd' }, 12.5, 'USD'],
      [{ account_balance: 3 }, 3, undefined],
      [{ balance: { value: '1.5', currency: 'GBP' } }, 1.5, 'GBP'],
      [{ balance_cents: 1999, currency: 'EUR' }, 19.99, 'EUR'],
      [{ balance: { amount_minor: 250, currency: 'EUR' } }, 2.5, 'EUR'],
      [{ result: 'success', client: { currency: 1, currency_code: 'USD', credit: '0.00' } }, 0, 'USD'],
      [{ creditbalance: '$4.00 USD' }, 4, 'USD'],
    ];
    for (const [body, amount, currency] of balances) {
      it(`reads the balance ${JSON.stringify(body)}`, () => {
        const balance = normaliseBalance(body);
        assert.deepEqual([balance.amount, balance.currency], [amount, currency]);
      });
    }

    it('reads people: full name, then first and last, then company or login', () => {
      assert.equal(
        normaliseAccount({ id: 1, first_name: 'Ada', last_name: 'Lovelace', username: 'ada' }).name,
        'Ada Lovelace',
      );
      assert.equal(normaliseAccount({ id: 1, fullname: 'Test Client', company: 'X' }).name, 'Test Client');
      assert.equal(normaliseAccount({ account: { username: 'user1', credits: 5 } }).id, 'user1');
      assert.equal(normaliseAccount({ euuid: 'E1AF', email: 'a@x' }).id, 'E1AF');
    });

    it('reads invoice numbers, dates, totals and statuses in their common names', () => {
      const now = Date.parse('2026-01-01T00:00:00Z');
      const a = normaliseInvoice(
        { id: 1, invoice_num: 'A-7', duedate: '2026-02-01', total: '15.95', currencycode: 'USD', status: 'Unpaid' },
        now,
      );
      assert.deepEqual(
        [a.number, a.dueDate, a.amount, a.currency, a.status],
        ['A-7', '2026-02-01', 15.95, 'USD', 'unpaid'],
      );
      const b = normaliseInvoice(
        { invoice_uuid: 'u-1', invoice_id: '12345678', amount_due: 3, due_at: '2025-12-01T10:00:00Z' },
        now,
        undefined,
        fixedZone(0),
      );
      assert.deepEqual([b.id, b.number, b.amount, b.dueDate], ['u-1', '12345678', 3, '2025-12-01']);
      assert.equal(normaliseInvoice({ id: 2, reference: 'R-2' }, now).number, 'R-2');
      assert.equal(normaliseInvoice({ id: 2, label: 'Invoice' }, now).number, undefined);
      assert.equal(normaliseInvoice({ id: 2, date: '2018-01-01T00:01:01' }, now).date, '2018-01-01');
      assert.equal(normaliseInvoice({ id: 2, date: '0000-00-00 00:00:00' }, now).date, undefined);
      for (const [status, want] of [
        ['Paid', 'paid'],
        ['Overdue', 'overdue'],
        ['Cancelled', 'cancelled'],
        ['Refunded', 'cancelled'],
        ['Payment Pending', 'unpaid'],
      ] as const) {
        assert.equal(normaliseInvoice({ id: 3, status }, now).status, want);
      }
      assert.equal(normaliseInvoice({ id: 3, is_paid: false }, now).status, 'unpaid');
    });

    it('traces which fields were used, for the first entry only', () => {
      const used: string[] = [];
      const trace: FieldTrace = { use: (role, path) => used.push(`${role}=${path}`) };
      normaliseOrderList(
        {
          data: [
            {
              type: 'servers',
              id: '1',
              attributes: { hostname: 'h', status: 'up', public_net: { ipv4: { ip: '203.0.113.1' } } },
            },
            { type: 'servers', id: '2', attributes: { hostname: 'g' } },
          ],
        },
        trace,
      );
      assert.deepEqual(used, [
        'list=data',
        'id=data[].id',
        'name=data[].attributes.hostname',
        'state=data[].attributes.status',
        'address=data[].attributes.public_net.ipv4.ip',
      ]);
      used.length = 0;
      normaliseBalance({ meta: { x: 1 }, data: { balance: '3', currency: 'EUR' } }, trace);
      assert.deepEqual(used, ['amount=data.balance', 'currency=data.currency']);
    });
  });

  describe('hostile input', () => {
    /** `{key:{key:…}}` built in a loop: JSON.stringify itself would overflow on the deepest. */
    function nest(depth: number, key: string, leaf: unknown = { id: 1 }): unknown {
      let value = leaf;
      for (let i = 0; i < depth; i++) value = { [key]: value };
      return value;
    }
    function deepArray(depth: number): unknown {
      let value: unknown = [];
      for (let i = 0; i < depth; i++) value = [value];
      return value;
    }
    function onlyApiErrors(call: () => unknown): void {
      try {
        call();
      } catch (error) {
        assert.ok(error instanceof ApiError, `threw ${String(error)}`);
        assert.equal(error.kind, 'badResponse');
      }
    }

    for (const depth of [23, 1000, 100_000]) {
      it(`reads ${depth}-level wrapper nests quickly and fails only with badResponse`, () => {
        const started = performance.now();
        for (const key of ['orders', 'data', 'invoices', 'result', 'account']) {
          const body = nest(depth, key);
          onlyApiErrors(() => normaliseOrderList(body));
          onlyApiErrors(() => normaliseInvoiceList(body));
          onlyApiErrors(() => normaliseOrder(body));
          onlyApiErrors(() => normaliseInvoice(body));
          onlyApiErrors(() => normaliseBalance(body));
          onlyApiErrors(() => normaliseAccount(body));
        }
        assert.ok(performance.now() - started < RUNAWAY_MS, `took ${performance.now() - started} ms`);
      });
    }

    it('reads an order holding a 20,000-deep array, and refuses 20,000 wrapper levels with badResponse', () => {
      onlyApiErrors(() => normaliseOrder({ order: nest(20_000, 'order') }));
      onlyApiErrors(() => normaliseOrder({ name: 'x', server: nest(20_000, 'server') }));
      assert.throws(() => normaliseOrder(nest(20_000, 'data', { data: deepArray(20_000) })), { kind: 'badResponse' });
      const deep = deepArray(20_000);
      const order = normaliseOrder({ id: 1, name: 'x', status: deep, ips: deep, networks: { v4: deep }, plan: deep });
      assert.equal(order.id, '1');
      assert.equal(normaliseOrderList({ data: [{ id: 2, addresses: deep, relationships: deep }] }).orders.length, 1);
    });

    it('uses string ids exactly as sent', () => {
      assert.equal(normaliseOrder({ id: ' 7' }).id, ' 7');
      assert.equal(normaliseOrder({ id: '9007199254740993' }).id, '9007199254740993');
    });

    const refused: Array<[string, unknown, RegExp]> = [
      ['a lone surrogate', '\ud800', /lone surrogate/],
      ['an integer beyond 2^53', JSON.parse('9007199254740993') as number, /too large/],
      ['an empty string', '', /empty/],
      ['a 257-character string', 'x'.repeat(257), /longer than 256/],
      ['a fraction', 1.5, /not a whole number/],
      ['null', null, /is null/],
      ['a boolean', true, /is a boolean/],
      ['an object', { value: 2 }, /is an object/],
    ];
    for (const [name, id, reason] of refused) {
      it(`refuses ${name} as an order or invoice id, and skips it in a list`, () => {
        assert.throws(
          () => normaliseOrder({ id, name: 'x' }),
          (error: unknown) => error instanceof ApiError && error.kind === 'badResponse' && reason.test(error.message),
        );
        assert.throws(() => normaliseInvoice({ id }), { kind: 'badResponse' });
        const { orders, skipped } = normaliseOrderList([{ id }, { id: 2 }]);
        assert.deepEqual([orders.map((o) => o.id), skipped], [['2'], 1]);
        assert.doesNotThrow(() => encodeURIComponent(orders[0]?.id ?? ''));
      });
    }

    it('does not fall back to another id field when the first is refused', () => {
      assert.throws(() => normaliseOrder({ id: JSON.parse('9007199254740993') as number, uuid: 'u-1' }), /too large/);
    });

    it('keeps messages short whatever the keys', () => {
      const key = 'k'.repeat(10_000);
      assert.throws(
        () => normaliseOrderList({ [key]: 1, [`${key}2`]: 2 }),
        (error: Error) => error.message.length < 300,
      );
    });
  });
});
