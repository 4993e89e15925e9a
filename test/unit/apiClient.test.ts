import assert from 'node:assert/strict';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { ApiClient, type ApiClientOptions, type RequestLogEntry } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { DEMO_API_KEY, type MockApi, type MockApiOptions, startMockApi } from '../mock-api/server';
import { FakeClock } from './helpers/FakeClock';
import { failure } from './helpers/failure';
import { plain } from '../../src/util/serverText';

const KEY = DEMO_API_KEY;

describe('ApiClient against the mock API (unit)', function () {
  this.timeout(20_000);
  let mock: MockApi;
  let logs: RequestLogEntry[];
  const clients: ApiClient[] = [];

  async function start(options: MockApiOptions = {}): Promise<void> {
    mock = await startMockApi({ transitionMs: 50, ...options });
  }

  function client(options: Partial<ApiClientOptions> = {}): ApiClient {
    const created = new ApiClient({
      baseUrl: mock.url,
      getKey: () => KEY,
      userAgent: 'hosting-account-vscode/9.9.9-test',
      // A registry per client keeps the tests' request budgets apart.
      limiters: new LimiterRegistry(61_000),
      retry: { baseDelayMs: 10, maxDelayMs: 40 },
      onRequest: (entry) => logs.push(entry),
      ...options,
    });
    clients.push(created);
    return created;
  }

  const apiRequests = (): MockApi['requests'] => mock.requests.filter((r) => r.rawPath.includes('/api/v1/'));

  beforeEach(async () => {
    logs = [];
    await start();
  });

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.dispose();
    await mock.close();
    // Nothing the client produced may contain the key: errors are checked where they are made, logs here.
    assert.ok(!JSON.stringify(logs).includes(KEY), 'the key leaked into a log entry');
  });

  describe('endpoints', () => {
    it('reads the account, orders, one order, balance and invoices', async () => {
      const api = client();
      const account = await api.getAccount();
      assert.equal(account.name, 'Ada Lovelace');
      const orders = (await api.listOrders()).items;
      assert.ok(orders.length >= 5);
      assert.ok(orders.some((o) => o.state === 'running'));
      assert.ok(orders.some((o) => o.state === 'stopped'));
      const first = orders[0];
      assert.ok(first);
      const one = await api.getOrder(first.id);
      assert.equal(one.id, first.id);
      assert.equal(one.label, first.label);
      const balance = await api.getBalance();
      assert.equal(typeof balance.amount, 'number');
      assert.equal(balance.currency, 'EUR');
      const invoices = (await api.listInvoices()).items;
      assert.ok(invoices.some((i) => i.status === 'paid'));
      assert.ok(invoices.some((i) => i.status === 'unpaid' || i.status === 'overdue'));
      assert.deepEqual(
        apiRequests().map((r) => r.route),
        [
          'GET /api/v1/me',
          'GET /api/v1/orders',
          'GET /api/v1/orders/:id',
          'GET /api/v1/balance',
          'GET /api/v1/invoices',
        ],
      );
    });

    it('sends the bearer key, Accept and a User-Agent on every request', async () => {
      const api = client();
      await api.getBalance();
      const [request] = apiRequests();
      assert.equal(request?.authorization, `Bearer ${KEY}`);
      assert.equal(request?.accept, 'application/json');
      assert.equal(request?.userAgent, 'hosting-account-vscode/9.9.9-test');
    });

    it('sends an action as exactly {"action":"<verb>"} with a JSON content type, and moves the order', async () => {
      const api = client();
      const running = (await api.listOrders()).items.find((o) => o.state === 'running');
      assert.ok(running);
      const result = await api.orderAction(running.id, 'stop');
      assert.equal(result.order?.state, 'busy');
      const post = apiRequests().find((r) => r.method === 'POST');
      assert.equal(post?.body, '{"action":"stop"}');
      assert.match(post?.contentType ?? '', /^application\/json/);
      assert.equal(post?.rawPath, `/api/v1/orders/${running.id}/action`);
      await new Promise((resolve) => setTimeout(resolve, 120));
      assert.equal((await api.getOrder(running.id)).state, 'stopped');
    });

    it('refuses an action that is not one of the four verbs without sending anything', async () => {
      const api = client();
      const error = await failure(api.orderAction('1001', 'explode' as never));
      assert.equal(error.kind, 'invalidRequest');
      assert.equal(apiRequests().length, 0);
    });
  });

  describe('payload shapes', () => {
    for (const shape of ['standard', 'bare', 'alt'] as const) {
      it(`reads the "${shape}" shape, paginated`, async () => {
        await mock.close();
        await start({ shape, pageSize: 2 });
        const api = client();
        const orders = (await api.listOrders()).items;
        assert.equal(orders.length, mock.state.orders.length);
        assert.ok(
          orders.every((o) => o.id && plain(o.label) && !plain(o.label).startsWith('#')),
          JSON.stringify(orders.map((o) => o.label)),
        );
        assert.ok(orders.some((o) => o.state === 'running') && orders.some((o) => o.state === 'stopped'));
        const pages = apiRequests().filter((r) => r.route === 'GET /api/v1/orders').length;
        assert.equal(pages, Math.ceil(mock.state.orders.length / 2));
        const balance = await api.getBalance();
        assert.ok(balance.amount > 0 && balance.currency);
        assert.ok((await api.getAccount()).name ?? (await api.getAccount()).email);
        assert.ok((await api.listInvoices()).items.length > 0);
        const stopped = orders.find((o) => o.state === 'stopped');
        assert.ok(stopped);
        await api.orderAction(stopped.id, 'start');
      });
    }
  });

  describe('errors', () => {
    it('reports a wrong key as unauthorized with the server message', async () => {
      const api = client({ getKey: () => 'wrong-key-123456' });
      const error = await failure(api.listOrders());
      assert.equal(error.kind, 'unauthorized');
      assert.equal(error.status, 401);
      assert.equal(error.code, 'unauthorized');
      assert.equal(error.serverMessage, 'Invalid or missing API key');
      assert.equal(apiRequests().length, 1, 'an auth failure is not retried');
    });

    it('sends nothing without a key', async () => {
      const api = client({ getKey: () => undefined });
      const error = await failure(api.getBalance());
      assert.equal(error.kind, 'noKey');
      assert.equal(error.maybeSent, false);
      assert.equal(mock.requests.length, 0);
    });

    it('reports an unknown order as notFound and a refused action with the server message', async () => {
      const api = client();
      assert.equal((await failure(api.getOrder('999999'))).kind, 'notFound');
      const stopped = (await api.listOrders()).items.find((o) => o.state === 'stopped');
      assert.ok(stopped);
      const refused = await failure(api.orderAction(stopped.id, 'stop'));
      assert.equal(refused.kind, 'invalidRequest');
      assert.equal(refused.status, 409);
      assert.ok(refused.serverMessage && plain(refused.serverMessage).length > 0);
    });

    it('reports a 500 as server without retrying it', async () => {
      mock.faults.add({ kind: 'status', status: 500, path: '/api/v1/balance' });
      const error = await failure(client().getBalance());
      assert.equal(error.kind, 'server');
      assert.equal(error.status, 500);
      assert.equal(apiRequests().length, 1);
    });

    it('reports a closed port as network', async () => {
      const closed = await new Promise<number>((resolve) => {
        const server = http.createServer().listen(0, '127.0.0.1', () => {
          const { port } = server.address() as AddressInfo;
          server.close(() => resolve(port));
        });
      });
      const error = await failure(
        client({ baseUrl: `http://127.0.0.1:${closed}`, retry: { maxAttempts: 1 } }).getBalance(),
      );
      assert.equal(error.kind, 'network');
      assert.equal(error.transportCode, 'ECONNREFUSED');
    });

    for (const [kind, fault] of [
      ['malformed JSON', { kind: 'malformed' }],
      ['an HTML page', { kind: 'html', status: 200 }],
      ['an empty body', { kind: 'empty' }],
      ['a redirect', { kind: 'redirect' }],
    ] as const) {
      it(`reports ${kind} as badResponse without crashing`, async () => {
        mock.faults.add({ ...fault, path: '/api/v1/orders' });
        const error = await failure(client().listOrders());
        assert.equal(error.kind, 'badResponse', error.message);
        assert.ok(error.message.length < 300);
        assert.equal(apiRequests().length, 1, 'not retried and not followed');
      });
    }

    it('reads valid JSON sent with a wrong content type', async () => {
      mock.faults.add({ kind: 'contentType', path: '/api/v1/orders' });
      assert.ok((await client().listOrders()).items.length > 0);
    });

    it('accepts an empty body on a successful action', async () => {
      mock.faults.add({ kind: 'empty', status: 202, method: 'POST' });
      const result = await client().orderAction('1003', 'start');
      assert.deepEqual(result, {});
    });

    it('cuts off a body over the size cap and keeps memory bounded', async () => {
      mock.faults.add({ kind: 'huge', bytes: 30 * 1024 * 1024, path: '/api/v1/orders' });
      const before = process.memoryUsage().rss;
      const error = await failure(client({ maxResponseBytes: 1024 * 1024 }).listOrders());
      assert.equal(error.kind, 'badResponse');
      assert.match(error.message, /larger than 1 MB/);
      assert.ok(process.memoryUsage().rss - before < 25 * 1024 * 1024);
    });

    it('keeps the key out of every error, including their causes and stacks', async () => {
      const seen: unknown[] = [];
      seen.push(await failure(client({ getKey: () => `${KEY}x` }).getBalance()));
      mock.faults.add({ kind: 'reset', path: '/api/v1/balance' });
      seen.push(await failure(client({ retry: { maxAttempts: 1 } }).getBalance()));
      mock.faults.clear();
      mock.faults.add({ kind: 'html', path: '/api/v1/me' });
      seen.push(await failure(client().getAccount()));
      for (const error of seen) {
        const text = `${String(error)} ${(error as Error).stack} ${JSON.stringify(error)} ${String((error as Error).cause)}`;
        assert.ok(!text.includes(KEY), text);
      }
    });
  });

  describe('timeouts and cancellation', () => {
    it('times out when the server does not answer', async () => {
      mock.faults.add({ kind: 'hang', path: '/api/v1/balance' });
      const error = await failure(client({ timeouts: { headersMs: 200 }, retry: { maxAttempts: 1 } }).getBalance());
      assert.equal(error.kind, 'timeout');
    });

    it('times out a whole exchange that takes too long', async () => {
      mock.faults.add({ kind: 'delay', delayMs: 1_000, path: '/api/v1/balance' });
      const error = await failure(client({ timeouts: { totalMs: 200 } }).getBalance());
      assert.equal(error.kind, 'timeout');
    });

    it('waits for a slow answer within the timeout', async () => {
      mock.faults.add({ kind: 'delay', delayMs: 100, path: '/api/v1/balance' });
      assert.equal(typeof (await client({ timeouts: { headersMs: 2_000 } }).getBalance()).amount, 'number');
    });

    it('cancels through an AbortSignal', async () => {
      mock.faults.add({ kind: 'hang', path: '/api/v1/balance' });
      const controller = new AbortController();
      const pending = client().getBalance({ signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      assert.equal((await failure(pending)).kind, 'cancelled');
    });
  });

  describe('retries', () => {
    it('retries a GET on 502/503/504 and succeeds', async () => {
      mock.faults.add({ kind: 'status', status: 503, path: '/api/v1/balance', times: 1 });
      mock.faults.add({ kind: 'status', status: 502, path: '/api/v1/balance', times: 1 });
      await client().getBalance();
      assert.equal(apiRequests().length, 3);
      assert.deepEqual(
        logs.map((l) => l.status),
        [503, 502, 200],
      );
    });

    it('retries a GET after a connection reset mid-body', async () => {
      mock.faults.add({ kind: 'resetMidBody', path: '/api/v1/orders', times: 1 });
      assert.ok((await client().listOrders()).items.length > 0);
      assert.equal(apiRequests().length, 2);
    });

    it('gives up after the bounded number of attempts', async () => {
      mock.faults.add({ kind: 'status', status: 504, path: '/api/v1/balance' });
      const error = await failure(client({ retry: { maxAttempts: 3, baseDelayMs: 5 } }).getBalance());
      assert.equal(error.kind, 'server');
      assert.equal(apiRequests().length, 3);
    });

    it('sends a background read once to a failing server (the schedule backs off instead), and retries the user', async () => {
      mock.faults.add({ kind: 'status', status: 503, path: '/api/v1/balance' });
      const api = client({ retry: { maxAttempts: 3, baseDelayMs: 5 } });
      const background = await failure(api.getBalance({ priority: 'background' }));
      assert.equal(background.kind, 'server');
      assert.equal(apiRequests().length, 1, 'one request for a background read of an account that is down');
      mock.clearLog();
      await failure(api.getBalance({ priority: 'user' }));
      assert.equal(apiRequests().length, 3, 'the user is still retried');
    });

    for (const fault of [
      { kind: 'status', status: 503 },
      { kind: 'status', status: 502 },
      { kind: 'reset' },
      { kind: 'resetMidBody' },
    ] as const) {
      it(`never retries a POST after ${fault.kind}${'status' in fault ? ` ${fault.status}` : ''}`, async () => {
        mock.faults.add({ ...fault, method: 'POST', times: 1 });
        const error = await failure(client().orderAction('1003', 'start'));
        assert.ok(['server', 'network'].includes(error.kind), error.kind);
        assert.equal(apiRequests().filter((r) => r.method === 'POST').length, 1);
        if (error.kind === 'network') assert.equal(error.maybeSent, true);
      });
    }

    it('never retries a POST after a timeout', async () => {
      mock.faults.add({ kind: 'hang', method: 'POST', times: 1 });
      const error = await failure(client({ timeouts: { headersMs: 200 } }).orderAction('1003', 'start'));
      assert.equal(error.kind, 'timeout');
      assert.equal(apiRequests().filter((r) => r.method === 'POST').length, 1);
    });

    it('never sends a POST again, not even one refused with 429 or 503 that says when to come back: one click, one POST', async () => {
      mock.faults.add({ kind: 'rateLimit', method: 'POST', retryAfter: '1', times: 1 });
      const limited = await failure(client().orderAction('1003', 'reinstall'));
      assert.equal(limited.kind, 'rateLimited');
      assert.equal(limited.status, 429);
      assert.equal(limited.maybeSent, undefined, 'the answer is known: refused');
      const busy = { kind: 'raw', method: 'POST', status: 503, headers: { 'Retry-After': '1' } } as const;
      mock.faults.add({ ...busy, body: '{"error":"maintenance"}', times: 1 });
      assert.equal((await failure(client().orderAction('1003', 'stop'))).status, 503);
      assert.equal(apiRequests().filter((r) => r.method === 'POST').length, 2, 'two clicks, two POSTs');
    });

    it("retries a user's GET refused with 429 once, after its Retry-After", async () => {
      mock.faults.add({ kind: 'rateLimit', path: '/api/v1/balance', retryAfter: '1' });
      const error = await failure(client().getBalance({ priority: 'user' }));
      assert.equal(error.kind, 'rateLimited');
      const [first, second, ...more] = apiRequests();
      assert.equal(more.length, 0, 'once');
      assert.ok((second?.time ?? 0) - (first?.time ?? 0) >= 1_000, 'after the Retry-After');
    });

    it('holds every request for the key while a Retry-After runs', async () => {
      mock.faults.add({ kind: 'rateLimit', path: '/api/v1/balance', retryAfter: '1', times: 1 });
      const api = client();
      const balance = api.getBalance();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await api.getAccount();
      await balance;
      const [limited, account] = [apiRequests()[0], apiRequests().find((r) => r.route === 'GET /api/v1/me')];
      assert.equal(limited?.status, 429);
      assert.ok((account?.time ?? 0) - (limited?.time ?? 0) >= 1_000, 'the other request waited too');
    });

    it('uses a sane default wait when a 429 has no Retry-After', async () => {
      mock.faults.add({ kind: 'rateLimit', path: '/api/v1/balance', retryAfter: null, times: 1 });
      const api = client();
      void api.getBalance().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok((api.rateLimitStatus()?.heldUntil ?? 0) > Date.now() + 1_000);
    });

    it('does not wait out a very long Retry-After: it reports rateLimited', async () => {
      mock.faults.add({ kind: 'rateLimit', path: '/api/v1/balance', retryAfter: '3600' });
      const api = client();
      const error = await failure(api.getBalance());
      assert.equal(error.kind, 'rateLimited');
      assert.equal(error.retryAfterMs, 3_600_000);
      assert.equal((await failure(api.getAccount())).kind, 'rateLimited', 'held requests fail fast');
      assert.equal(apiRequests().length, 1);
    });
  });

  describe('rate limit', () => {
    it('never causes a 429 from a 120/min server, whatever is asked, and tells the remaining budget', async () => {
      const clock = new FakeClock(Date.now());
      await mock.close();
      await start({ now: () => clock.now(), rateLimit: { limit: 120, windowMs: 60_000 } });
      const api = client({ clock, limiters: new LimiterRegistry(61_000, clock), requestsPerMinute: 120 });
      // Distinct ids, so coalescing cannot hide the load; unknown orders answer 404 and still count on the server.
      const calls = Array.from({ length: 250 }, (_, i) => api.getOrder(`load-${i}`).catch(() => undefined));
      // Fake time moves in small steps with a real pause, so each request reaches the mock close to when it left.
      for (let step = 0; step < 1_500 && apiRequests().length < 250; step++) {
        await clock.advance(200);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await Promise.all(calls);
      assert.equal(apiRequests().filter((r) => r.status === 429).length, 0);
      assert.equal(apiRequests().length, 250);
      const status = api.rateLimitStatus();
      assert.ok(status && status.limit === 120 && status.remaining <= 120);
    });
  });

  describe('a full queue', () => {
    it("sends a user's Stop while 256 background reads wait for the limit, without moving the clock", async () => {
      const clock = new FakeClock(Date.now());
      await mock.close();
      await start({ now: () => clock.now(), rateLimit: false });
      const api = client({ clock, limiters: new LimiterRegistry(61_000, clock), requestsPerMinute: 100 });
      const refused: unknown[] = [];
      // Distinct ids, so coalescing cannot merge them: the background share of the window, then more than the queue holds.
      const read = (i: number): Promise<unknown> =>
        api.getOrder(`bg-${i}`).catch((error: unknown) => refused.push(error));
      const reads = Array.from({ length: 96 }, (_, i) => read(i));
      for (let i = 0; i < 500 && apiRequests().length < 96; i++) await new Promise((r) => setTimeout(r, 2));
      reads.push(...Array.from({ length: 300 }, (_, i) => read(96 + i)));
      await new Promise((r) => setTimeout(r, 10));
      assert.ok(api.rateLimitStatus()?.queued === 256, 'the window is spent and the queue full');
      const stop = await api.orderAction('1001', 'stop');
      assert.ok(stop);
      assert.equal(apiRequests().filter((r) => r.method === 'POST').length, 1, 'the Stop went out at once');
      const queueFull = refused.filter((e) => (e as { reason?: { rule: string } }).reason?.rule === 'queueFull');
      assert.ok(queueFull.length > 0, 'the oldest background reads gave way, not sent');
      await api.dispose();
      await Promise.all(reads);
    });
  });

  describe('coalescing', () => {
    it('raises a queued background read that a user read joins: it goes out before the other queued reads', async () => {
      const clock = new FakeClock(Date.now());
      await mock.close();
      await start({ now: () => clock.now(), rateLimit: false });
      const api = client({ clock, limiters: new LimiterRegistry(61_000, clock), requestsPerMinute: 2 });
      const settle = (p: Promise<unknown>): Promise<unknown> => p.catch(() => undefined);
      // Unknown orders answer 404: each call is settled at once, so no rejection goes unhandled.
      const background = [
        api.getOrder('a'),
        api.getOrder('b'),
        api.getOrder('c'),
        api.getOrder('d'),
        api.getBalance(),
      ].map(settle);
      const waitFor = async (count: number): Promise<void> => {
        for (let i = 0; i < 500 && apiRequests().length < count; i++) await new Promise((r) => setTimeout(r, 2));
      };
      await waitFor(2);
      const joined = settle(api.getBalance({ priority: 'user' }));
      await clock.advance(61_000);
      await waitFor(4);
      // The two slots that free after a window go to the raised balance and the oldest background read (on two
      // lanes, so in either order), not to the two background reads queued before the balance.
      assert.deepEqual(
        apiRequests()
          .map((r) => r.rawPath)
          .sort(),
        ['/api/v1/balance', '/api/v1/orders/a', '/api/v1/orders/b', '/api/v1/orders/c'],
      );
      await clock.advance(61_000);
      await Promise.all([...background, joined]);
    });

    it('shares one request among concurrent identical GETs', async () => {
      mock.faults.add({ kind: 'delay', delayMs: 50, path: '/api/v1/orders' });
      const api = client();
      const results = await Promise.all(Array.from({ length: 10 }, () => api.listOrders()));
      assert.equal(apiRequests().length, 1);
      assert.ok(results.every((r) => r.items.length === results[0]?.items.length));
    });

    it('keeps the shared request alive when one of its callers cancels', async () => {
      mock.faults.add({ kind: 'delay', delayMs: 100, path: '/api/v1/balance' });
      const api = client();
      const controller = new AbortController();
      const leaving = api.getBalance({ signal: controller.signal });
      const staying = api.getBalance();
      controller.abort();
      assert.equal((await failure(leaving)).kind, 'cancelled');
      assert.equal(typeof (await staying).amount, 'number');
      assert.equal(apiRequests().length, 1);
    });

    it('does not coalesce POSTs', async () => {
      const api = client();
      await Promise.allSettled([api.orderAction('1003', 'start'), api.orderAction('1003', 'start')]);
      assert.equal(apiRequests().filter((r) => r.method === 'POST').length, 2);
    });
  });

  describe('paths', () => {
    it('sends each id as exactly one encoded path segment', async () => {
      const ids = ['../balance', 'a/b?c#d', '%2F', 'with space', 'ünï✓', '..', '.'];
      const api = client();
      for (const id of ids) await failure(api.getOrder(id));
      const received = apiRequests().map((r) => [r.rawPath, r.orderId]);
      assert.deepEqual(received, [
        ['/api/v1/orders/..%2Fbalance', '../balance'],
        ['/api/v1/orders/a%2Fb%3Fc%23d', 'a/b?c#d'],
        ['/api/v1/orders/%252F', '%2F'],
        ['/api/v1/orders/with%20space', 'with space'],
        ['/api/v1/orders/%C3%BCn%C3%AF%E2%9C%93', 'ünï✓'],
        ['/api/v1/orders/%2E%2E', '..'],
        ['/api/v1/orders/%2E', '.'],
      ]);
      assert.ok(apiRequests().every((r) => r.route === 'GET /api/v1/orders/:id'));
    });

    it('puts the base URL path prefix before /api/v1 and follows next links only on the same origin', async () => {
      const paths: string[] = [];
      const server = http.createServer((req, res) => {
        paths.push(req.url ?? '');
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            data: [{ id: 1, name: 'one' }],
            links: { next: 'https://elsewhere.example/api/v1/orders?page=2' },
          }),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const orders = (await client({ baseUrl: `http://127.0.0.1:${port}/panel//` }).listOrders()).items;
        assert.equal(orders.length, 1);
        assert.deepEqual(paths, ['/panel/api/v1/orders']);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('follows next-page links behind a path prefix without doubling it', async () => {
      const paths: string[] = [];
      const server = http.createServer((req, res) => {
        paths.push(req.url ?? '');
        res.setHeader('content-type', 'application/json');
        const second = (req.url ?? '').endsWith('page=2');
        res.end(
          JSON.stringify({
            data: [{ id: second ? 2 : 1, name: 'n' }],
            links: { next: second ? null : '/panel/api/v1/orders?page=2' },
          }),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const orders = (await client({ baseUrl: `http://127.0.0.1:${port}/panel` }).listOrders()).items;
        assert.deepEqual(
          orders.map((o) => o.id),
          ['1', '2'],
        );
        assert.deepEqual(paths, ['/panel/api/v1/orders', '/panel/api/v1/orders?page=2']);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('refuses plain http to a host that is not loopback before any request', () => {
      assert.throws(() => client({ baseUrl: 'http://example.com' }), { kind: 'badConfig' });
    });
  });

  describe('logging', () => {
    it('logs method, path, status, duration and request id of each attempt, without the key', async () => {
      const api = client();
      await api.getBalance();
      assert.equal(logs.length, 1);
      const [entry] = logs;
      assert.equal(entry?.method, 'GET');
      assert.equal(entry?.path, '/api/v1/balance');
      assert.equal(entry?.status, 200);
      assert.ok((entry?.durationMs ?? -1) >= 0);
      assert.match(entry?.requestId ?? '', /.+/);
    });
  });
});
