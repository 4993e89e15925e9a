import assert from 'node:assert/strict';
import { ApiClient } from '../../src/api/ApiClient';
import { ApiError } from '../../src/api/errors';
import { MAX_ANSWER_TEXT } from '../../src/api/lastAnswers';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { type FieldMap, parseFieldMap, preview, resolvePointer } from '../../src/api/normalise/fieldMap';
import { plain } from '../../src/util/serverText';
import { json, ScriptedServer } from './helpers/scriptedServer';

const KEY = 'fieldmap-key-0123456789abcdef';

function refusal(value: unknown): string | undefined {
  try {
    parseFieldMap(value);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof ApiError);
    assert.equal(error.reason?.rule, 'fieldMapInvalid');
    return error.reason.rule === 'fieldMapInvalid' ? error.reason.problem : undefined;
  }
}

describe('field map (unit)', () => {
  it('parses a map of known keys to JSON Pointers, and nothing else', () => {
    const map = parseFieldMap({
      pointers: { id: '/uuid', name: '/properties/name', orderList: '' },
      amountScale: 'minor',
    });
    assert.deepEqual(map, { pointers: { id: '/uuid', name: '/properties/name', orderList: '' }, amountScale: 'minor' });
    assert.ok(Object.isFrozen(map) && Object.isFrozen(map.pointers));
  });

  it('refuses a broken or hostile map with a typed reason', () => {
    assert.equal(refusal(null), 'notObject');
    assert.equal(refusal([]), 'notObject');
    assert.equal(refusal({ pointers: 'x' }), 'notObject');
    assert.equal(refusal({ pointers: {}, origin: 'https://evil.example' }), 'unknownKey');
    assert.equal(refusal({ pointers: { baseUrl: '/x' } }), 'unknownKey');
    assert.equal(refusal(JSON.parse('{"pointers":{"__proto__":"/x"}}')), 'unknownKey');
    assert.equal(refusal({ pointers: { id: 7 } }), 'notString');
    assert.equal(refusal({ pointers: { id: 'id' } }), 'badPointer');
    assert.equal(refusal({ pointers: { id: '/a~2b' } }), 'badPointer');
    assert.equal(refusal({ pointers: { id: `/${'a'.repeat(200)}` } }), 'tooLong');
    assert.equal(refusal({ pointers: { id: '/a'.repeat(17) } }), 'tooDeep');
    assert.equal(refusal({ pointers: {}, amountScale: 'cents' }), 'badScale');
    const many = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, '/x']));
    assert.equal(refusal({ pointers: many }), 'tooMany');
  });

  it('resolves RFC 6901 pointers, escapes and array indexes included, and nothing inherited', () => {
    const doc = { 'a/b': { 'm~n': [10, 20] }, list: [{ id: 'x' }] };
    assert.equal(resolvePointer(doc, '/a~1b/m~0n/1'), 20);
    assert.equal(resolvePointer(doc, '/list/0/id'), 'x');
    assert.equal(resolvePointer(doc, '/list/01/id'), undefined);
    assert.equal(resolvePointer(doc, '/list/-'), undefined);
    assert.equal(resolvePointer(doc, '/constructor'), undefined);
    assert.equal(resolvePointer(doc, '/list/0/id/length'), undefined);
    assert.equal(resolvePointer(doc, ''), doc);
  });

  it('reads the mapped fields over the general reading, and lists what the map misses', () => {
    const map: FieldMap = parseFieldMap({
      pointers: {
        orderList: '/result/machines',
        id: '/ident',
        name: '/meta/title',
        state: '/power/now',
        address: '/net/0',
        renewalPrice: '/billing/next',
        balanceAmount: '/wallet/0/left',
        invoiceAmount: '/sum',
      },
      amountScale: 'minor',
    });
    const orders = {
      result: {
        machines: [
          {
            id: 'wrong',
            ident: 'm-1',
            name: 'general',
            meta: { title: 'web' },
            power: { now: 'off' },
            net: ['203.0.113.4'],
            billing: { next: 1290 },
          },
          { ident: 'm-2', meta: {}, power: { now: 'on' } },
        ],
      },
    };
    const seen = preview(map, {
      orders,
      balance: { wallet: [{ left: 4250 }], currency: 'EUR' },
      invoices: [{ id: 1, sum: 1088 }],
    });
    const [first, second] = seen.orders?.value ?? [];
    assert.equal(first?.id, 'm-1');
    assert.equal(plain(first?.label ?? ''), 'web');
    assert.equal(first?.state, 'stopped');
    assert.equal(first?.address, '203.0.113.4');
    assert.equal(first?.renewal?.price, 12.9 * 10_000);
    assert.equal(second?.state, 'running');
    assert.equal(seen.balance?.value?.amount, 42.5);
    assert.equal(seen.balance?.value?.currency, 'EUR');
    assert.equal(seen.invoices?.value?.[0]?.amount, 10.88);
    assert.deepEqual(
      seen.misses.filter((m) => m.answer === 'orders').map((m) => [m.key, m.entries]),
      [
        ['name', 1],
        ['address', 1],
        ['renewalPrice', 1],
      ],
    );
  });

  it('refuses an entry whose mapped id names nothing, rather than reading another id field', () => {
    const map = parseFieldMap({ pointers: { id: '/ident' } });
    const seen = preview(map, { orders: [{ id: 7, name: 'a' }, { ident: 'b-1' }] });
    assert.deepEqual(
      seen.orders?.value?.map((o) => o.id),
      ['b-1'],
    );
    assert.equal(seen.orders?.skipped, 1);
  });
});

describe('field map preview of the answers the readers alone cannot place (unit)', () => {
  it('says a list held only ids, and reads a single order under the id it was asked for', () => {
    const map = parseFieldMap({ pointers: { name: '/properties/title', id: '/nothing' } });
    const seen = preview(map, {
      orders: ['ns1.example.net', 'ns2.example.net'],
      order: { data: [{ properties: { title: 'web' }, powerState: 'poweroff' }] },
      orderId: 'ns1.example.net',
    });
    assert.deepEqual(seen.orders?.ids, ['ns1.example.net', 'ns2.example.net']);
    assert.deepEqual(seen.orders?.value, []);
    assert.equal(seen.order?.value?.id, 'ns1.example.net');
    assert.equal(plain(seen.order?.value?.label ?? ''), 'web');
    assert.equal(seen.order?.value?.state, 'stopped');
    assert.deepEqual(seen.misses, []);
  });
});

describe('the last answers (unit, against a scripted server)', () => {
  let server: ScriptedServer;
  let client: ApiClient;
  async function serve(answer: Parameters<typeof ScriptedServer.start>[0], key = KEY): Promise<void> {
    server = await ScriptedServer.start(answer);
    client = new ApiClient({
      baseUrl: server.url,
      getKey: () => key,
      userAgent: 'field-map-test',
      limiters: new LimiterRegistry(61_000),
      retry: { maxAttempts: 1 },
    });
  }
  afterEach(async () => {
    await client.dispose();
    await server.close();
  });

  it('keeps the first page of a list, which a field map is taught on, not the last', async () => {
    await serve((request) =>
      request.url.endsWith('page=2')
        ? json({ data: [], links: { next: null } })
        : json({ data: [{ id: 1, name: 'web' }], links: { next: '/api/v1/orders?page=2' } }),
    );
    await client.listOrders();
    const orders = client.lastAnswer('orders');
    assert.equal(orders?.path, '/api/v1/orders');
    assert.match(orders?.text ?? '', /"name":"web"/);
  });

  it('keeps the last answer of each endpoint, the key masked and the text cut', async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => ({ id: i, note: `key ${KEY} here` }));
    await serve((request) =>
      request.url.endsWith('/balance')
        ? json({ error: 'unauthorized', message: `bad key ${KEY}` }, 401)
        : json({ data: big }),
    );
    await client.listOrders();
    await client.getBalance().catch(() => undefined);
    const orders = client.lastAnswer('orders');
    assert.ok(orders);
    assert.equal(orders.status, 200);
    assert.equal(orders.cut, true);
    assert.ok(orders.text.length <= MAX_ANSWER_TEXT && orders.text.length > MAX_ANSWER_TEXT / 2);
    assert.ok(!orders.text.includes(KEY));
    assert.equal(orders.parsed, true);
    // Nothing but the masked text is kept: no parsed copy could hold the key.
    assert.deepEqual(Object.keys(orders).sort(), ['at', 'cut', 'kind', 'method', 'parsed', 'path', 'status', 'text']);
    const balance = client.lastAnswer('balance');
    assert.equal(balance?.status, 401);
    assert.ok(balance?.text.includes('***') && !balance.text.includes(KEY));
    assert.equal(balance?.parsed, false);
    assert.equal(client.lastAnswer('invoices'), undefined);
    client.forgetAnswers();
    assert.equal(client.lastAnswer('orders'), undefined);
  });

  it('keeps no answer with the key in an escaped form: an error, one over 256 KB, text that is not JSON', async () => {
    const key = 'sk_live/0123456789abcdef';
    // Each letter escaped, escapes mixed with plain letters, `\/` as PHP writes it.
    const unicode = [...key].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const mixed = `\\u0073k_l\\u0069ve\\/0123\\u00345678\\u0039abcdef`;
    const echoes = [unicode, mixed, key.replace('/', '\\/')];
    const note = (i: number): string => `key ${echoes[i % echoes.length] ?? ''} here`;
    const big = `{"data":[${Array.from({ length: 8_000 }, (_, i) => `{"id":${i},"note":"${note(i)}"}`).join(',')}]}`;
    await serve((request) => {
      if (request.url.endsWith('/balance')) {
        return { status: 401, body: `{"error":"unauthorized","message":"${note(0)} ${note(1)}"}` };
      }
      if (request.url.endsWith('/invoices')) {
        return { status: 200, headers: { 'content-type': 'text/plain' }, body: `${note(0)} ${note(1)} ${note(2)}` };
      }
      if (request.url.endsWith('/me')) return { status: 500, body: `{"error":"boom","detail":"${note(1)}"` };
      return { body: big };
    }, key);
    await client.listOrders();
    for (const read of [() => client.getBalance(), () => client.listInvoices(), () => client.getAccount()]) {
      await read().catch(() => undefined);
    }
    const decode = (text: string): string =>
      text
        .replace(/\\u([\da-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        .replaceAll('\\/', '/');
    for (const kind of ['orders', 'balance', 'invoices', 'me'] as const) {
      const text = client.lastAnswer(kind)?.text ?? '';
      assert.ok(text.includes('***'), kind);
      assert.ok(!decode(text).includes(key), `${kind}: ${text.slice(0, 300)}`);
    }
    assert.equal(client.lastAnswer('orders')?.cut, true);
  });
});
