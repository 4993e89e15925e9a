import assert from 'node:assert/strict';
import { DEMO_API_KEY, type MockApi, startMockApi } from '../mock-api/server';

describe('mock API: a limit enforced without being told (unit)', () => {
  let mock: MockApi;
  afterEach(() => mock.close());

  it('answers 429 over the limit, with no X-RateLimit-* headers and no Retry-After when rateLimitHeaders is false', async () => {
    mock = await startMockApi({ rateLimit: { limit: 2, windowMs: 60_000 }, rateLimitHeaders: false });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${mock.url}/api/v1/balance`, {
        headers: { authorization: `Bearer ${DEMO_API_KEY}` },
      });
      statuses.push(response.status);
      const names = [...response.headers.keys()];
      assert.ok(!names.some((name) => name.startsWith('x-ratelimit') || name === 'retry-after'), names.join(', '));
      await response.arrayBuffer();
    }
    assert.deepEqual(statuses, [200, 200, 429]);
  });
});
