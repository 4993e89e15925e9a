import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { ApiClient, type ApiClientOptions, type RequestLogEntry } from '../../src/api/ApiClient';
import { ApiError } from '../../src/api/errors';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { FakeClock } from './helpers/FakeClock';
import { failure } from './helpers/failure';
import { json, ScriptedServer } from './helpers/scriptedServer';
import { RUNAWAY_MS } from './helpers/catastrophe';

const KEY = 'hk_live_0123456789abcdef';

/** Runs `call` and returns how long it took; a hostile body must never hold the event loop for long. */
async function timed<T>(call: () => Promise<T>): Promise<{ ms: number; result: T | ApiError }> {
  const started = performance.now();
  let result: T | ApiError;
  try {
    result = await call();
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    result = error;
  }
  return { ms: performance.now() - started, result };
}

describe('hostile servers: parsing, masking, ids and pages (unit)', () => {
  let server: ScriptedServer;
  let log: RequestLogEntry[];
  let warnings: string[];

  const client = (overrides: Partial<ApiClientOptions> = {}): ApiClient =>
    new ApiClient({
      baseUrl: server.url,
      getKey: () => KEY,
      userAgent: 'hostile-test',
      limiters: new LimiterRegistry(61_000),
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      onRequest: (entry) => log.push(entry),
      onWarning: (message) => warnings.push(message),
      ...overrides,
    });

  beforeEach(async () => {
    log = [];
    warnings = [];
    server = await ScriptedServer.start(() => json([]));
  });
  afterEach(() => server.close());

  describe('no super-linear work on what a server sends', () => {
    it('reads a balance of "1", 1,600 spaces and "!" at once (was 4.7 s)', async () => {
      server.script(() => json({ balance: `1${' '.repeat(1_600)}!` }));
      const { ms, result } = await timed(() => client().getBalance());
      assert.ok(ms < RUNAWAY_MS, `${ms} ms`);
      assert.equal((result as ApiError).kind, 'badResponse');
    });

    it('excerpts an 80 KB error body of "<" at once (was 11 s)', async () => {
      server.script(() => ({ status: 500, headers: { 'content-type': 'text/plain' }, body: '<'.repeat(80_000) }));
      const { ms, result } = await timed(() => client({ retry: { maxAttempts: 1 } }).getBalance());
      assert.ok(ms < RUNAWAY_MS, `${ms} ms`);
      assert.equal((result as ApiError).kind, 'server');
    });

    it('answers a 100,000-deep {"data":…} with a badResponse, not a RangeError', async () => {
      server.script(() => ({ body: `${'{"data":'.repeat(100_000)}1${'}'.repeat(100_000)}` }));
      const { ms, result } = await timed(() => client().listOrders());
      assert.ok(ms < RUNAWAY_MS, `${ms} ms`);
      assert.equal((result as ApiError).kind, 'badResponse');
    });

    it('refuses a list whose order holds a 20,000-deep array, saying how deep values may nest', async () => {
      const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
      server.script(() => ({
        body: `[{"id":1,"name":"ok","status":"running"},{"id":2,"name":"deep","status":"running","junk":${deep}}]`,
      }));
      const { ms, result } = await timed(() => client().listOrders());
      assert.ok(ms < RUNAWAY_MS, `${ms} ms`);
      const error = result as ApiError;
      assert.equal(error.kind, 'badResponse');
      assert.deepEqual(error.reason, { rule: 'tooComplex', bound: 'depth', limit: 32 });
    });

    it('accepts JSON that starts with a UTF-8 byte-order mark', async () => {
      server.script(() => ({
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(`\ufeff${JSON.stringify({ balance: 3, currency: 'EUR' })}`),
      }));
      assert.equal((await client().getBalance()).amount, 3);
    });
  });

  describe('ids are exact', () => {
    it('keeps integer ids beyond 2^53 exact, so the action goes to the order shown', async () => {
      server.script((request) =>
        request.method === 'POST'
          ? json({ message: 'ok' }, 202)
          : {
              body: '[{"id":9007199254740992,"name":"a"},{"id":9007199254740993,"name":"b"},{"id":12345678901234567890,"name":"c"}]',
            },
      );
      const api = client();
      const orders = (await api.listOrders()).items;
      assert.deepEqual(
        orders.map((o) => o.id),
        ['9007199254740992', '9007199254740993', '12345678901234567890'],
      );
      await api.orderAction('9007199254740993', 'stop');
      await api.orderAction('12345678901234567890', 'stop');
      assert.deepEqual(
        server.requestsTo('/api/v1/orders/').map((r) => r.url),
        ['/api/v1/orders/9007199254740993/action', '/api/v1/orders/12345678901234567890/action'],
      );
    });

    it('refuses an id that cannot be encoded, clearly and before any request', async () => {
      const api = client();
      for (const call of [api.getOrder('\ud800'), api.orderAction('\ud800', 'reinstall')]) {
        const error = await failure(call);
        assert.equal(error.kind, 'invalidRequest');
        assert.match(error.message, /cannot be sent/);
      }
      assert.equal(server.requests.length, 0);
    });
  });

  describe('the key never leaks through an echo', () => {
    const echo = (status: number) => (request: { headers: Record<string, unknown> }) => {
      const key = String(request.headers.authorization).slice('Bearer '.length);
      return {
        status,
        headers: { 'content-type': 'application/json', 'x-request-id': key, 'x-echo': key },
        body: JSON.stringify({
          error: key,
          message: `bad key ${key}`,
          [key]: key,
          name: key,
          data: { [`k${key}`]: `\\u${key}` },
        }),
      };
    };

    it('masks a key echoed in headers and every body position, for the key in use and a key in play', async () => {
      const stored = 'hk_stored_key_abcdef';
      for (const status of [200, 401, 500]) {
        server.script(echo(status));
        const api = client({ secrets: () => [stored], retry: { maxAttempts: 1 } });
        const outcome = await api.getAccount().catch((error: unknown) => error);
        const seen = JSON.stringify(
          { outcome, message: (outcome as Error).message, log, warnings },
          (_k, v: unknown) => (v instanceof Error ? { ...v, message: v.message } : v),
        );
        assert.ok(!seen.includes(KEY), `status ${status}: the key leaked: ${seen.slice(0, 300)}`);
        assert.ok(log.every((e) => e.requestId === undefined || /^[\x21-\x7e]{1,64}$/.test(e.requestId)));
      }
      // The other key in play is masked too, even when the server knows it from elsewhere.
      server.script(() => json({ name: stored, email: `${stored}@example.com` }, 500, { 'x-request-id': stored }));
      const error = await failure(client({ secrets: () => [stored], retry: { maxAttempts: 1 } }).getAccount());
      assert.ok(!JSON.stringify({ error, message: error.message, log }).includes(stored));
    });

    it('masks a key that a next-page link puts in the path, in the log and in the error', async () => {
      server.script((request) =>
        request.url === '/api/v1/orders'
          ? json({ data: [{ id: 1, name: 'a' }], next: `/api/v1/orders?token=${KEY}` })
          : json({ error: 'not_found' }, 404),
      );
      const error = await failure(client().listOrders());
      assert.equal(server.requests.length, 2);
      assert.ok(!JSON.stringify({ error, path: error.path, message: error.message, log, warnings }).includes(KEY));
      assert.match(error.path ?? '', /token=\*\*\*/);
    });

    it('refuses a key that cannot go in a header before any request, without retries', async () => {
      for (const bad of ['abc def ghi', 'key\nInjected: 1', 'ключ-ключ']) {
        const error = await failure(client({ getKey: () => bad }).getAccount());
        assert.equal(error.kind, 'keyUnsendable');
        assert.equal(error.maybeSent, false);
        assert.match(error.message, /cannot be sent/);
      }
      assert.equal(server.requests.length, 0);
    });
  });

  describe('pagination stays inside the API and inside memory', () => {
    it('never follows a next link out of the API path, with or without a prefix', async () => {
      server.script((request) =>
        request.url.startsWith('/api/v1/orders')
          ? json({ data: [{ id: 1, name: 'a' }], links: { next: '/../../admin/delete-everything' } })
          : json({ deleted: 'everything' }),
      );
      const listing = await client().listOrders();
      assert.equal(listing.items.length, 1);
      assert.equal(listing.stoppedBy, 'outsideApi');
      assert.deepEqual(
        server.requests.map((r) => r.url),
        ['/api/v1/orders'],
      );
      assert.ok(warnings.some((w) => /outsideApi/.test(w)));
    });

    it('stops an endless chain of 1.25 MB pages at the 10 MB cap over all pages, and says so', async () => {
      const filler = 'x'.repeat(1_250_000);
      server.script((request) => {
        const page = Number(new URL(request.url, 'http://h').searchParams.get('page') ?? '1');
        return json({
          data: [{ id: page, name: `p${page}`, note: filler }],
          links: { next: `/api/v1/orders?page=${page + 1}` },
        });
      });
      const listing = await client().listOrders();
      assert.equal(listing.stoppedBy, 'sizeLimit');
      assert.ok(server.requests.length <= 9, `${server.requests.length} pages fetched`);
      assert.equal(listing.items.length, server.requests.length);
    });

    it('follows page numbers from current_page/last_page and reports the total', async () => {
      server.script((request) => {
        const page = Number(new URL(request.url, 'http://h').searchParams.get('page') ?? '1');
        return json({
          current_page: page,
          last_page: 3,
          total: 7,
          next_page_url: null,
          data: [{ id: page * 10, name: `n${page}` }],
        });
      });
      const listing = await client().listOrders();
      assert.deepEqual(
        listing.items.map((o) => o.id),
        ['10', '20', '30'],
      );
      assert.equal(listing.total, 7, 'the server says there are more than it served');
      assert.deepEqual(
        server.requests.map((r) => r.url),
        ['/api/v1/orders', '/api/v1/orders?page=2', '/api/v1/orders?page=3'],
      );
    });

    it('does not call a list incomplete when its total counts entries that could not be read', async () => {
      server.script(() => json({ data: [{ id: 1, name: 'a' }, { name: 'no id' }], meta: { total: 2 } }));
      const listing = await client().listOrders();
      assert.equal(listing.items.length, 1);
      assert.equal(listing.total, undefined);
      assert.ok(warnings.some((w) => /1 entries .* could not be read/.test(w)));
    });

    it('stops at 50 pages and on a cycle', async () => {
      server.script((request) => {
        const page = Number(new URL(request.url, 'http://h').searchParams.get('page') ?? '1');
        return json({ data: [{ id: page }], next: `/api/v1/orders?page=${page + 1}` });
      });
      assert.equal((await client().listOrders()).stoppedBy, 'pageLimit');
      assert.equal(server.requests.length, 50);
      server.requests.length = 0;
      server.script(() => json({ data: [{ id: 1 }], next: '/api/v1/orders?page=1' }));
      assert.equal((await client().listOrders()).stoppedBy, 'cycle');
      assert.equal(server.requests.length, 2);
    });
  });

  describe('fair', () => {
    it('sends a user action while six background reads hang', async () => {
      server.script((request) => (request.method === 'GET' ? { hang: true } : json({ message: 'accepted' }, 202)));
      const api = client({ timeouts: { headersMs: 20_000, totalMs: 20_000 } });
      const reads = ['/balance', '/me', '/invoices', '/orders', '/orders/1', '/orders/2'].map(() =>
        api.listInvoices().catch(() => undefined),
      );
      for (const id of ['1', '2', '3', '4', '5']) void api.getOrder(id).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { ms } = await timed(() => api.orderAction('7', 'stop'));
      // The reads hang for 20 s: an action queued behind them would wait that long.
      assert.ok(ms < RUNAWAY_MS, `the action waited ${ms} ms behind hung reads`);
      assert.equal(server.requestsTo('/api/v1/orders/7/action').length, 1);
      await api.dispose();
      await Promise.all(reads);
    });
  });
});

describe('hostile servers: waits are bounded, scoped and visible (unit)', () => {
  let server: ScriptedServer;
  let other: ScriptedServer;
  let clock: FakeClock;
  let limiters: LimiterRegistry;

  const client = (url: string, key = KEY, overrides: Partial<ApiClientOptions> = {}): ApiClient =>
    new ApiClient({
      baseUrl: url,
      getKey: () => key,
      userAgent: 'hostile-test',
      clock,
      limiters,
      retry: { maxAttempts: 1 },
      ...overrides,
    });

  beforeEach(async () => {
    clock = new FakeClock(Date.now());
    limiters = new LimiterRegistry(61_000, clock);
    server = await ScriptedServer.start(() => json({ balance: 1 }));
    other = await ScriptedServer.start(() => json({ balance: 2 }));
  });
  afterEach(async () => {
    limiters.dispose();
    await Promise.all([server.close(), other.close()]);
  });

  for (const [name, retryAfter] of [
    ['999999999 seconds', '999999999'],
    ['an HTTP date in 2099', 'Thu, 01 Jan 2099 00:00:00 GMT'],
  ] as const) {
    it(`caps a Retry-After of ${name} at five minutes, for this key and origin only`, async () => {
      server.script(() => json({ error: 'rate_limited' }, 429, { 'retry-after': retryAfter }));
      const warnings: string[] = [];
      await failure(client(server.url, KEY, { onWarning: (line) => warnings.push(line) }).getBalance());
      assert.match(warnings.join('\n'), /asks to wait until 20[5-9]\d-.*held for 5 min at most/, 'the log says both');
      server.script(() => json({ balance: 1 }));
      const held = await failure(client(server.url).getBalance());
      assert.equal(held.kind, 'rateLimited');
      assert.equal(held.retryAfterMs, 5 * 60_000);
      assert.equal(server.requests.length, 1, 'held requests are not sent');
      assert.equal((await client(other.url).getBalance()).amount, 2, 'another origin is not held');
      assert.equal((await client(server.url, 'hk_other_key_123456').getBalance()).amount, 1, 'another key is not held');
      await clock.advance(5 * 60_000);
      assert.equal((await client(server.url).getBalance()).amount, 1, 'tried again after five minutes');
    });
  }

  it('does not read "foo 2099" as a date', async () => {
    server.script(() => json({ error: 'busy' }, 503, { 'retry-after': 'foo 2099' }));
    await failure(client(server.url).getBalance());
    server.script(() => json({ balance: 1 }));
    assert.equal((await client(server.url).getBalance()).amount, 1);
  });

  it('fails a Stop at once, "not sent", when the server budget is spent for an hour; nothing is sent later', async () => {
    const resetAt = Math.round((clock.now() + 3_600_000) / 1000);
    server.script(() =>
      json({ balance: 1 }, 200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetAt) }),
    );
    await client(server.url).getBalance();
    const error = await failure(client(server.url).orderAction('1', 'stop', { priority: 'user' }));
    assert.equal(error.kind, 'rateLimited');
    assert.equal(error.maybeSent, false);
    assert.equal(error.retryAfterMs, 5 * 60_000, 'the hour is held as five minutes, then tried again');
    await clock.advance(2 * 3_600_000);
    assert.equal(server.requestsTo('/api/v1/orders').length, 0);
  });

  it('gives up on an action it cannot send within ten seconds instead of sending it later', async () => {
    const api = client(server.url, KEY, { requestsPerMinute: 1 });
    await api.getBalance();
    const stop = failure(api.orderAction('1', 'stop', { priority: 'user' }));
    await clock.advance(10_000);
    const error = await stop;
    assert.equal(error.maybeSent, false);
    assert.match(error.message, /not sent/);
    await clock.advance(120_000);
    assert.equal(server.requestsTo('/api/v1/orders').length, 0);
  });

  it('tells a waiting user request until when it waits', async () => {
    const resetAt = clock.now() + 20_000;
    server.script(() =>
      json({ balance: 1 }, 200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetAt) }),
    );
    await client(server.url).getBalance();
    server.script(() => json({ balance: 1 }));
    let until: number | undefined;
    const read = client(server.url).getBalance({ priority: 'user', onWait: (time) => (until = time) });
    await clock.advance(0);
    assert.equal(until, resetAt);
    await clock.advance(20_000);
    assert.equal((await read).amount, 1);
  });

  it('never arms a timer beyond a minute, whatever reset time a server names', async () => {
    const delays: number[] = [];
    const setTimeout = clock.setTimeout.bind(clock);
    clock.setTimeout = (callback, ms) => (delays.push(ms), setTimeout(callback, ms));
    server.script(() =>
      json({ balance: 1 }, 200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999999' }),
    );
    await client(server.url).getBalance();
    const queued = client(server.url)
      .getBalance()
      .catch(() => undefined);
    await clock.advance(10 * 60_000);
    await queued;
    assert.ok(
      delays.every((ms) => ms <= 60_000),
      `delays ${delays.join(', ')}`,
    );
    assert.ok(delays.length < 50, `${delays.length} timers in ten minutes`);
  });

  it('bounds the queue and cancels thousands of waiting requests cheaply', async () => {
    const limiter = limiters.get(KEY, server.url, 1);
    (await limiter.acquire())();
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    const waits = Array.from({ length: 20_000 }, () =>
      limiter.acquire({ signal: controller.signal }).then(
        () => 'granted',
        (e: ApiError) => e.kind,
      ),
    );
    const started = performance.now();
    controller.abort();
    const outcomes = await Promise.all(waits);
    assert.ok(performance.now() - started < RUNAWAY_MS, `cancelling took ${performance.now() - started} ms`);
    assert.equal(outcomes.filter((o) => o === 'cancelled').length, 256, 'the queue holds 256');
    assert.equal(outcomes.filter((o) => o === 'rateLimited').length, 20_000 - 256, 'the rest were refused at once');
    assert.equal(limiter.status().queued, 0);
  });
});
