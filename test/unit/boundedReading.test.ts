import assert from 'node:assert/strict';
import { ApiClient } from '../../src/api/ApiClient';
import { ApiError } from '../../src/api/errors';
import { JSON_BOUNDS } from '../../src/api/json';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { tinyOrderList, wideOrderList } from '../mock-api/hugeBodies';
import { ScriptedServer } from './helpers/scriptedServer';

const KEY = 'hk_live_0123456789abcdef';

/**
 * Bodies of up to 10 MB whose weight is in their count: the client refuses them unparsed, with a clear error. How long
 * each blocks is measured by `npm run bench`; these tests check what is refused and what the error says.
 */
describe('bounded reading of answers up to 10 MB (unit)', () => {
  let server: ScriptedServer;
  let body: string;

  before(async () => {
    server = await ScriptedServer.start(() => ({ body }));
  });
  after(() => server.close());

  const client = (): ApiClient =>
    new ApiClient({
      baseUrl: server.url,
      getKey: () => KEY,
      userAgent: 'bounded-test',
      limiters: new LimiterRegistry(61_000),
      retry: { maxAttempts: 1 },
    });

  async function refusal(read: (api: ApiClient) => Promise<unknown>): Promise<ApiError> {
    const api = client();
    try {
      const error = await read(api).then(
        () => assert.fail('read'),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof ApiError, String(error));
      return error;
    } finally {
      await api.dispose();
    }
  }

  it('refuses 757,000 tiny orders in one answer, saying the list is longer than 20,000 entries', async () => {
    body = tinyOrderList().body;
    const error = await refusal((api) => api.listOrders());
    assert.equal(error.kind, 'badResponse');
    assert.deepEqual(error.reason, { rule: 'tooComplex', bound: 'entries', limit: JSON_BOUNDS.entries });
    assert.match(error.message, /entries \(20000\)/);
  });

  it('refuses an order with 620,000 fields, saying an object has more than 500', async () => {
    const wide = wideOrderList();
    for (const [text, read] of [
      [wide.body, (api: ApiClient) => api.listOrders()],
      [wide.body.slice(1, -1), (api: ApiClient) => api.getOrder('1')],
    ] as const) {
      body = text;
      const error = await refusal(read);
      assert.equal(error.kind, 'badResponse');
      assert.deepEqual(error.reason, { rule: 'tooComplex', bound: 'members', limit: JSON_BOUNDS.members });
    }
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
    assert.equal(listing.items.length, JSON_BOUNDS.entries);
    assert.equal(listing.stoppedBy, 'countLimit');
    assert.equal(listing.total, 30_000);
    await server.close();
    server = await ScriptedServer.start(() => ({ body }));
  });
});
