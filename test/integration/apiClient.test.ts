import * as assert from 'node:assert/strict';
import { ApiClient } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { testApi } from './env';
import { suiteMock } from './harness';
import { plain } from '../../src/util/serverText';

interface LoggedRequest {
  readonly method: string;
  readonly route: string;
  readonly userAgent?: string;
  readonly status: number;
  readonly authorizationMatchesKey: number | null;
}

/** The mock's own request log, read over its control endpoint. */
async function mockLog(url: string): Promise<LoggedRequest[]> {
  const response = await fetch(`${url}/__mock/log`);
  assert.equal(response.status, 200);
  return (await response.json()) as LoggedRequest[];
}

describe('the API client in the extension host', () => {
  const userAgent = `hosting-account-integration/${process.pid}`;

  // It talks to the suite mock at the address the runner wrote into the settings, over real HTTP.
  before(() => suiteMock());

  it('reaches the mock API through undici with the key', async () => {
    const { url, key } = testApi();
    const client = new ApiClient({
      baseUrl: url,
      getKey: () => Promise.resolve(key),
      userAgent,
      limiters: new LimiterRegistry(),
    });
    try {
      const account = await client.getAccount();
      assert.equal(account.name, 'Ada Lovelace');
      const orders = (await client.listOrders()).items;
      assert.ok(
        orders.some((order) => plain(order.label) === 'web-frontend-01'),
        'the seeded order web-frontend-01 is listed',
      );
      const balance = await client.getBalance();
      assert.equal(typeof balance.amount, 'number');
    } finally {
      await client.dispose();
    }
    const ours = (await mockLog(url)).filter((request) => request.userAgent === userAgent);
    assert.ok(ours.length >= 3, `the mock logged ${ours.length} of our requests`);
    assert.ok(ours.every((request) => request.authorizationMatchesKey === 0 && request.status === 200));
  });

  it('reports a wrong key as an error', async () => {
    const client = new ApiClient({
      baseUrl: testApi().url,
      getKey: () => Promise.resolve('wrong-key'),
      userAgent,
      limiters: new LimiterRegistry(),
    });
    try {
      await assert.rejects(client.getAccount());
    } finally {
      await client.dispose();
    }
  });
});
