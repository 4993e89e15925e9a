import assert from 'node:assert/strict';
import { ApiClient } from '../../src/api/ApiClient';
import { MAX_ARRAY_ITEMS, MAX_OBJECT_KEYS } from '../../src/api/json';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { tinyOrderList, wideOrderList } from '../mock-api/hugeBodies';
import { ScriptedServer } from './helpers/scriptedServer';

const KEY = 'hk_live_0123456789abcdef';

/**
 * Bodies of up to 10 MB whose weight is in their count: the client reads a bounded part of them, says what it left
 * out, and lets the event loop turn meanwhile. How long each block lasts is measured by `npm run bench`; these tests
 * check what is read and that the reading is taken in turns.
 */
describe('bounded reading of answers up to 10 MB (unit)', () => {
  let server: ScriptedServer;
  let body: string;
  let warnings: string[];

  before(async () => {
    server = await ScriptedServer.start(() => ({ body }));
  });
  after(() => server.close());
  beforeEach(() => {
    warnings = [];
  });

  const client = (): ApiClient =>
    new ApiClient({
      baseUrl: server.url,
      getKey: () => KEY,
      userAgent: 'bounded-test',
      limiters: new LimiterRegistry(61_000),
      retry: { maxAttempts: 1 },
      onWarning: (message) => warnings.push(message),
    });

  /** Runs `work`, counting the event-loop turns it left to others (zero-delay timers that got to run). */
  async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    try {
      return { result: await work(), turns };
    } finally {
      clearInterval(ticking);
    }
  }

  it('reads the first 20,000 of 757,000 tiny orders, says the rest was not read, and lets the event loop turn', async () => {
    const tiny = tinyOrderList();
    body = tiny.body;
    const api = client();
    const { result: listing, turns } = await turnsDuring(() => api.listOrders());
    await api.dispose();
    assert.equal(listing.items.length, MAX_ARRAY_ITEMS);
    assert.equal(listing.items.at(-1)?.id, String(MAX_ARRAY_ITEMS));
    assert.equal(listing.stoppedBy, 'countLimit');
    assert.equal(listing.total, tiny.count);
    assert.ok(turns >= 5, `${turns} turns of the event loop while reading`);
    assert.ok(
      warnings.some((w) => w.includes('were not read')),
      warnings.join('\n'),
    );
  });

  it('reads the first 500 fields of an order with 620,000, and says how many it left out', async () => {
    const wide = wideOrderList();
    body = wide.body;
    const api = client();
    const { result: listing, turns } = await turnsDuring(() => api.listOrders());
    const [order] = listing.items;
    assert.equal(listing.items.length, 1);
    assert.equal(order?.id, '1');
    assert.equal(order.label, 'wide');
    assert.equal(order.state, 'running');
    assert.equal(Object.keys(order.raw).length, MAX_OBJECT_KEYS);
    assert.equal(order.omittedFields, wide.fields - MAX_OBJECT_KEYS);
    assert.equal(listing.stoppedBy, undefined);
    assert.ok(turns >= 5, `${turns} turns of the event loop while reading`);
    // The same order read on its own.
    body = wide.body.slice(1, -1);
    const single = await api.getOrder('1');
    await api.dispose();
    assert.equal(single.omittedFields, wide.fields - MAX_OBJECT_KEYS);
  });

  it('reads no more than 20,000 entries over all the pages of a list', async () => {
    const page = (n: number, from: number): string =>
      `[${Array.from({ length: n }, (_, i) => `{"id":${from + i}}`).join(',')}]`;
    const pages = [page(15_000, 1), page(15_000, 15_001)];
    await server.close();
    server = await ScriptedServer.start((request) => {
      const second = request.url.includes('page=2');
      return {
        headers: {
          'content-type': 'application/json',
          ...(second ? {} : { link: '</api/v1/orders?page=2>; rel="next"' }),
        },
        body: pages[second ? 1 : 0],
      };
    });
    const api = client();
    const listing = await api.listOrders();
    await api.dispose();
    assert.equal(listing.items.length, MAX_ARRAY_ITEMS);
    assert.equal(listing.stoppedBy, 'countLimit');
    assert.equal(listing.total, 30_000);
    await server.close();
    server = await ScriptedServer.start(() => ({ body }));
  });
});
