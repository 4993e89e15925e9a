import assert from 'node:assert/strict';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { parseArgs } from '../mock-api/main';
import { DEMO_API_KEY, type MockApi, type MockApiOptions, type OrderRecord, startMockApi } from '../mock-api/server';

type Json = Record<string, unknown>;

const AUTH = { Authorization: `Bearer ${DEMO_API_KEY}` };
const ERROR_TYPE = 'application/json; charset=utf-8';

let api: MockApi;
const started: MockApi[] = [];

async function start(options: MockApiOptions = {}): Promise<MockApi> {
  api = await startMockApi({ transitionMs: 20, ...options });
  started.push(api);
  return api;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((a) => a.close()));
});

function call(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${api.url}${path}`, { ...init, headers: { ...AUTH, ...(init.headers as Record<string, string>) } });
}

async function getJson(path: string, init: RequestInit = {}): Promise<{ res: Response; body: Json }> {
  const res = await call(path, init);
  return { res, body: (await res.json()) as Json };
}

function action(id: string | number, body: unknown): Promise<Response> {
  return call(`/api/v1/orders/${id}/action`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Sends the path exactly as given; fetch would normalise `%2E%2E` and friends away. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = AUTH,
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: api.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function waitFor(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const parse = (text: string): Json => JSON.parse(text) as Json;
const statusOf = (id: number | string): string | undefined => api.state.getOrder(id)?.status;

describe('mock API', () => {
  describe('authentication', () => {
    beforeEach(() => start());

    it('rejects a missing key with the spec error and a request id', async () => {
      const res = await fetch(`${api.url}/api/v1/me`);
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('content-type'), ERROR_TYPE);
      assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{16}$/);
      assert.deepEqual(await res.json(), { error: 'unauthorized', message: 'Invalid or missing API key' });
    });

    it('rejects wrong keys and wrong schemes', async () => {
      for (const value of ['Bearer nope', `Token ${DEMO_API_KEY}`, 'Bearer', `Bearer ${DEMO_API_KEY} x`]) {
        const res = await fetch(`${api.url}/api/v1/me`, { headers: { Authorization: value } });
        assert.equal(res.status, 401, value);
        assert.equal(res.headers.get('x-ratelimit-limit'), null);
      }
    });

    it('answers unknown paths with 401 before auth and 404 after', async () => {
      assert.equal((await fetch(`${api.url}/api/v2/me`)).status, 401);
      const { res, body } = await getJson('/api/v2/me');
      assert.equal(res.status, 404);
      assert.deepEqual(body, { error: 'not_found', message: 'No such endpoint' });
      assert.equal((await call('/api/v1/me', { method: 'POST' })).status, 404);
      assert.equal((await call('/api/v1/orders/')).status, 404);
    });

    it('accepts every configured key and revokes a key in use', async () => {
      await api.close();
      await start({ keys: ['k-one', 'k-two'] });
      for (const key of ['k-one', 'k-two']) {
        const res = await fetch(`${api.url}/api/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
        assert.equal(res.status, 200);
      }
      assert.equal((await call('/api/v1/me')).status, 401);
      api.setKeys(['k-two']);
      const revoked = await fetch(`${api.url}/api/v1/me`, { headers: { Authorization: 'Bearer k-one' } });
      assert.equal(revoked.status, 401);
    });
  });

  describe('endpoints (standard shape)', () => {
    beforeEach(() => start());

    it('GET /me returns the account', async () => {
      const { res, body } = await getJson('/api/v1/me');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(body.id, 4242);
      assert.equal(body.email, 'ada@example.com');
      assert.equal(body.tier, 'pro');
    });

    it('GET /orders lists the seed with a total', async () => {
      const { body } = await getJson('/api/v1/orders?ignored=1');
      const data = body.data as Json[];
      assert.equal(data.length, 6);
      assert.deepEqual(body.meta, { total: 6 });
      assert.equal(body.links, undefined);
      assert.deepEqual(
        data.map((o) => o.status),
        ['running', 'running', 'stopped', 'stopped', 'suspended', 'starting'],
      );
      for (const key of [
        'id',
        'name',
        'plan',
        'ip',
        'location',
        'os',
        'cpu',
        'ram_gb',
        'disk_gb',
        'created_at',
        'renews_at',
        'price_monthly',
        'currency',
      ]) {
        assert.ok(key in (data[0] ?? {}), key);
      }
    });

    it('GET /orders/:id returns one order or 404', async () => {
      const { body } = await getJson('/api/v1/orders/1002');
      assert.equal((body.data as Json).name, 'db-primary');
      const missing = await getJson('/api/v1/orders/9999');
      assert.equal(missing.res.status, 404);
      assert.deepEqual(missing.body, { error: 'not_found', message: 'Order 9999 not found' });
    });

    it('GET /balance and GET /invoices', async () => {
      assert.deepEqual((await getJson('/api/v1/balance')).body, { balance: 42.5, currency: 'EUR', credit_limit: 0 });
      const { body } = await getJson('/api/v1/invoices');
      const invoices = body.data as Json[];
      assert.equal(invoices.length, 5);
      assert.deepEqual(body.meta, { total: 5 });
      assert.deepEqual(new Set(invoices.map((i) => i.status)), new Set(['paid', 'overdue', 'unpaid']));
      assert.equal(invoices[4]?.number, 'INV-2026-0042');
      assert.equal(invoices[4]?.url, `${api.url}/client/invoices/42`);
    });

    it('serves the public pages without auth or rate limit, and logs them', async () => {
      await api.close();
      await start({ rateLimit: { limit: 1, windowMs: 60_000 } });
      const page = await fetch(`${api.url}/client/invoices/42`);
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.match(await page.text(), /INV-2026-0042/);
      assert.equal((await fetch(`${api.url}/client/invoices/7`)).status, 404);
      const keys = await (await fetch(`${api.url}/client/api-keys`)).text();
      assert.ok(!keys.includes(DEMO_API_KEY), 'keys page must mask keys');
      assert.equal((await fetch(`${api.url}/client/login`)).status, 200);
      assert.equal((await call('/api/v1/me')).status, 200, 'pages did not use up the limit');
      assert.deepEqual(api.requests.map((r) => r.route).slice(0, 2), [
        'GET /client/invoices/:id',
        'GET /client/invoices/:id',
      ]);
    });

    it('treats {id} as one raw segment without normalising dots', async () => {
      await api.close();
      const odd: OrderRecord = {
        id: 'srv/a b',
        name: 'odd',
        status: 'running',
        plan: 'VPS S',
        ip: '192.0.2.1',
        location: 'Frankfurt',
        os: 'Debian 12',
        cpu: 1,
        ram_gb: 1,
        disk_gb: 10,
        created_at: '2025-01-01T00:00:00Z',
        renews_at: '2026-01-01T00:00:00Z',
        price_monthly: 3,
        currency: 'EUR',
      };
      await start({ seed: { orders: [odd] } });

      const traversal = await raw('GET', '/api/v1/orders/..%2Fbalance');
      assert.equal(traversal.status, 404);
      assert.deepEqual(JSON.parse(traversal.text), { error: 'not_found', message: 'Order ../balance not found' });
      const dots = await raw('GET', '/api/v1/orders/%2E%2E');
      assert.deepEqual(JSON.parse(dots.text), { error: 'not_found', message: 'Order .. not found' });
      const plain = await raw('GET', '/api/v1/orders/../balance');
      assert.equal(plain.status, 404);
      assert.equal(parse(plain.text).message, 'No such endpoint');
      const found = await raw('GET', '/api/v1/orders/srv%2Fa%20b');
      assert.equal(found.status, 200);
      assert.equal((parse(found.text).data as Json).name, 'odd');
      const bad = await raw('GET', '/api/v1/orders/%E0%A4%A');
      assert.equal(bad.status, 400);
      assert.equal(parse(bad.text).error, 'invalid_request');

      assert.deepEqual(
        api.requests.map((r) => [r.rawPath, r.route, r.orderId]),
        [
          ['/api/v1/orders/..%2Fbalance', 'GET /api/v1/orders/:id', '../balance'],
          ['/api/v1/orders/%2E%2E', 'GET /api/v1/orders/:id', '..'],
          ['/api/v1/orders/../balance', 'unmatched', undefined],
          ['/api/v1/orders/srv%2Fa%20b', 'GET /api/v1/orders/:id', 'srv/a b'],
          ['/api/v1/orders/%E0%A4%A', 'GET /api/v1/orders/:id', undefined],
        ],
      );
    });
  });

  describe('order actions', () => {
    beforeEach(() => start());

    it('runs stop, start, restart and reinstall through their transitional states', async () => {
      // Transitions long enough that the transitional state is still there when read back, even on a busy machine.
      await start({ transitionMs: 300 });
      const res = await action(1001, { action: 'stop' });
      assert.equal(res.status, 202);
      const body = (await res.json()) as Json;
      assert.equal(body.action, 'stop');
      assert.equal(body.message, 'Stopping web-frontend-01');
      assert.equal((body.order as Json).status, 'stopping');
      assert.equal(((await getJson('/api/v1/orders/1001')).body.data as Json).status, 'stopping');
      await waitFor(() => statusOf(1001) === 'stopped');

      const steps: [string, string, string][] = [
        ['start', 'starting', 'running'],
        ['restart', 'restarting', 'running'],
        ['reinstall', 'reinstalling', 'running'],
      ];
      for (const [verb, via, to] of steps) {
        const r = await action(1001, { action: verb });
        assert.equal(r.status, 202, verb);
        assert.equal(((await r.json()) as { order: Json }).order.status, via);
        await waitFor(() => statusOf(1001) === to);
      }
      assert.equal((await action(1003, { action: 'reinstall' })).status, 202, 'reinstall from stopped');
    });

    it('refuses actions that do not fit the state', async () => {
      const cases: [number | string, unknown, number, Json][] = [
        [1005, { action: 'start' }, 409, { error: 'order_suspended', message: 'Order 1005 is suspended' }],
        [1003, { action: 'stop' }, 409, { error: 'invalid_state', message: 'Order 1003 is stopped; cannot stop it' }],
        [1001, { action: 'start' }, 409, { error: 'invalid_state', message: 'Order 1001 is running; cannot start it' }],
        [
          1001,
          { action: 'explode' },
          422,
          { error: 'invalid_action', message: 'action must be one of start, stop, restart, reinstall' },
        ],
        [9999, { action: 'start' }, 404, { error: 'not_found', message: 'Order 9999 not found' }],
      ];
      for (const [id, body, status, expected] of cases) {
        const res = await action(id, body);
        assert.equal(res.status, status, JSON.stringify(body));
        assert.deepEqual(await res.json(), expected);
      }
      const busy = await action(1006, { action: 'stop' });
      assert.equal(busy.status, 409);
      assert.equal(((await busy.json()) as Json).error, 'action_in_progress');
      assert.equal(statusOf(1003), 'stopped');
    });

    it('rejects malformed bodies with 400 invalid_request', async () => {
      const bodies = ['{"action":', '[]', '"start"', 'null', '{}', '{"action":1}', '{"action":"start","x":1}', ''];
      for (const body of bodies) {
        const res = await action(1003, body);
        assert.equal(res.status, 400, body);
        const json = (await res.json()) as Json;
        assert.equal(json.error, 'invalid_request');
        assert.equal(typeof json.message, 'string');
      }
      assert.equal(statusOf(1003), 'stopped');
    });

    it('reset() restores the seed and cancels pending transitions', async () => {
      api.setTransitionMs(30);
      await action(1001, { action: 'stop' });
      api.state.addOrders(3);
      api.state.reset();
      assert.equal(api.state.orders.length, 6);
      assert.equal(statusOf(1001), 'running');
      await new Promise((r) => setTimeout(r, 60));
      assert.equal(statusOf(1001), 'running', 'the cancelled transition must not fire');
    });

    it('reset({ seed }) makes a fresh server on the same address: that seed from now on, no faults, an empty log, a fresh rate limit', async () => {
      const limited = await start({
        rateLimit: { limit: 1, windowMs: 60_000 },
        keys: [DEMO_API_KEY, 'other-key-0123'],
      });
      const url = limited.url;
      assert.equal((await call('/api/v1/balance')).status, 200);
      assert.equal((await call('/api/v1/balance')).status, 429, 'the limit is reached');
      limited.faults.add({ kind: 'status', status: 500 });
      const only = { ...limited.state.orders[0], id: 77, name: 'only-one' } as OrderRecord;
      limited.reset({ seed: { orders: [only] } });
      assert.equal(limited.url, url);
      assert.equal(limited.requests.length, 0);
      assert.deepEqual(limited.faults.active, []);
      const { res, body } = await getJson('/api/v1/orders');
      assert.equal(res.status, 200, 'no fault, and a fresh rate limit');
      assert.deepEqual(
        (body.data as Json[]).map((o) => o.name),
        ['only-one'],
      );
      limited.state.addOrders(2);
      limited.reset();
      assert.equal(limited.state.orders.length, 1, 'back to the seed given last');
      const other = await fetch(`${url}/api/v1/balance`, { headers: { Authorization: 'Bearer other-key-0123' } });
      assert.equal(other.status, 200, 'the keys stay as they were');
    });

    it('setOrderStatus and addOrders manipulate the live data', async () => {
      api.state.setOrderStatus(1005, 'stopped');
      assert.equal((await action(1005, { action: 'start' })).status, 202);
      api.state.setOrderStatus(1005, 'running');
      await new Promise((r) => setTimeout(r, 40));
      assert.equal(statusOf(1005), 'running');
      assert.throws(() => api.state.setOrderStatus(4711, 'running'));

      const added = api.state.addOrders(10_000);
      assert.equal(added[0]?.id, 1007);
      assert.equal(new Set(api.state.orders.map((o) => o.id)).size, 10_006);
      const { body } = await getJson('/api/v1/orders');
      assert.equal((body.data as Json[]).length, 10_006);
      assert.equal(((await getJson('/api/v1/orders/11006')).body.data as Json).id, 11006);
    });

    it('close() with a pending transition leaves no timer behind', async () => {
      api.setTransitionMs(60_000);
      await action(1001, { action: 'stop' });
      await api.close();
      assert.equal(statusOf(1001), 'stopping');
    });
  });

  describe('rate limit', () => {
    it('uses a rolling window per key with an injected clock', async () => {
      let now = 1_700_000_000_000;
      await start({ keys: [DEMO_API_KEY, 'other'], rateLimit: { limit: 3, windowMs: 60_000 }, now: () => now });
      for (const remaining of ['2', '1', '0']) {
        const res = await call('/api/v1/me');
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('x-ratelimit-limit'), '3');
        assert.equal(res.headers.get('x-ratelimit-remaining'), remaining);
        assert.equal(res.headers.get('x-ratelimit-reset'), String(1_700_000_060));
        now += 1000;
      }
      const refused = await call('/api/v1/me');
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), '57');
      assert.deepEqual(await refused.json(), {
        error: 'rate_limited',
        message: 'Rate limit of 3 requests per minute exceeded',
      });

      const other = await fetch(`${api.url}/api/v1/me`, { headers: { Authorization: 'Bearer other' } });
      assert.equal(other.status, 200, 'limits are per key');

      now = 1_700_000_000_000 + 59_500;
      assert.equal((await call('/api/v1/me')).headers.get('retry-after'), '1', 'at least one second');
      now = 1_700_000_000_000 + 60_000;
      const freed = await call('/api/v1/me');
      assert.equal(freed.status, 200, 'refused requests did not count');
      assert.equal(freed.headers.get('x-ratelimit-remaining'), '0');
      assert.equal((await call('/api/v1/me')).status, 429);
    });

    it('defaults to 120 per minute and can be switched off', async () => {
      const now = 1_000_000;
      await start({ now: () => now });
      const results = await Promise.all(
        Array.from({ length: 121 }, async () => {
          const res = await call('/api/v1/balance');
          return { status: res.status, text: await res.text() };
        }),
      );
      const refused = results.filter((r) => r.status === 429);
      assert.equal(refused.length, 1);
      assert.equal(parse(refused[0]?.text ?? '').message, 'Rate limit of 120 requests per minute exceeded');

      await start({ rateLimit: false });
      const res = await call('/api/v1/me');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), null);
    });
  });

  describe('faults', () => {
    beforeEach(() => start({ rateLimit: { limit: 5, windowMs: 60_000 } }));

    it('delay answers normally after the delay', async () => {
      api.faults.add({ kind: 'delay', delayMs: 60, times: 1 });
      const t0 = Date.now();
      assert.equal((await call('/api/v1/me')).status, 200);
      assert.ok(Date.now() - t0 >= 50);
      assert.equal(api.requests[0]?.fault, 'delay');
      assert.equal(api.faults.active.length, 0);
    });

    it('hang never answers and close() still completes', async () => {
      api.faults.add({ kind: 'hang' });
      await assert.rejects(call('/api/v1/me', { signal: AbortSignal.timeout(80) }));
      assert.equal(api.requests[0]?.status, 0);
      assert.equal(api.requests[0]?.fault, 'hang');
      const pending = fetch(`${api.url}/api/v1/me`, { headers: AUTH }).catch((err: unknown) => err);
      await waitFor(() => api.requests.length === 2);
      const t0 = Date.now();
      await api.close();
      assert.ok(Date.now() - t0 < 1000);
      assert.ok((await pending) instanceof Error);
    });

    it('status answers a JSON server error', async () => {
      api.faults.add({ kind: 'status', times: 1 });
      api.faults.add({ kind: 'status', status: 503, times: 1 });
      const first = await getJson('/api/v1/me');
      assert.equal(first.res.status, 500);
      assert.equal(first.body.error, 'server_error');
      const second = await call('/api/v1/me');
      assert.equal(second.status, 503);
      assert.equal(second.headers.get('content-type'), ERROR_TYPE);
      assert.equal((await call('/api/v1/me')).status, 200);
    });

    it('rateLimit answers 429 with a configurable Retry-After', async () => {
      api.faults.add({ kind: 'rateLimit', times: 1 });
      api.faults.add({ kind: 'rateLimit', retryAfter: '120', times: 1 });
      api.faults.add({ kind: 'rateLimit', retryAfter: null, times: 1 });
      const a = await call('/api/v1/me');
      assert.equal(a.status, 429);
      assert.equal(a.headers.get('retry-after'), '1');
      assert.deepEqual(await a.json(), { error: 'rate_limited', message: 'Too many requests' });
      assert.equal((await call('/api/v1/me')).headers.get('retry-after'), '120');
      assert.equal((await call('/api/v1/me')).headers.get('retry-after'), null);
    });

    it('malformed, empty and contentType break parsing in different ways', async () => {
      api.faults.add({ kind: 'malformed', times: 1 });
      api.faults.add({ kind: 'empty', times: 1 });
      api.faults.add({ kind: 'empty', status: 204, times: 1 });
      api.faults.add({ kind: 'contentType', times: 1 });
      api.faults.add({ kind: 'contentType', contentType: 'application/octet-stream', times: 1 });
      const malformed = await call('/api/v1/orders');
      assert.equal(malformed.status, 200);
      assert.equal(malformed.headers.get('content-type'), 'application/json; charset=utf-8');
      await assert.rejects(malformed.json(), SyntaxError);
      const empty = await call('/api/v1/orders');
      assert.equal(empty.status, 200);
      assert.equal(empty.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(await empty.text(), '');
      assert.equal((await call('/api/v1/orders')).status, 204);
      const plain = await call('/api/v1/me');
      assert.equal(plain.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(((await plain.json()) as Json).id, 4242);
      assert.equal((await call('/api/v1/me')).headers.get('content-type'), 'application/octet-stream');
    });

    it('html answers a proxy error page', async () => {
      api.faults.add({ kind: 'html', times: 1 });
      api.faults.add({ kind: 'html', status: 504, times: 1 });
      const res = await call('/api/v1/me');
      assert.equal(res.status, 502);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.match(await res.text(), /<h1>502 Bad Gateway<\/h1>/);
      assert.equal((await call('/api/v1/me')).status, 504);
    });

    it('reset and resetMidBody cut the connection', async () => {
      api.faults.add({ kind: 'reset', times: 1 });
      await assert.rejects(call('/api/v1/me'));
      assert.equal(api.requests[0]?.status, 0);
      api.faults.add({ kind: 'resetMidBody', times: 1 });
      const res = await call('/api/v1/orders');
      assert.equal(res.status, 200);
      assert.ok(Number(res.headers.get('content-length')) > 100);
      await assert.rejects(res.text());
      assert.equal(api.requests[1]?.fault, 'resetMidBody');
      assert.equal((await call('/api/v1/me')).status, 200, 'the server survives');
    });

    it('huge streams a valid JSON document of the requested size', async () => {
      api.faults.add({ kind: 'huge', bytes: 1_000_000, times: 1 });
      const res = await call('/api/v1/orders');
      const text = await res.text();
      assert.equal(Buffer.byteLength(text), 1_000_000);
      assert.ok(typeof JSON.parse(text) === 'object');
      api.faults.add({ kind: 'huge', times: 1 });
      const big = await call('/api/v1/orders');
      assert.equal(big.headers.get('content-length'), String(20 * 1024 * 1024));
      assert.equal((await big.arrayBuffer()).byteLength, 20 * 1024 * 1024);
    });

    it('redirect answers 302 to the same server by default', async () => {
      api.faults.add({ kind: 'redirect', times: 1 });
      api.faults.add({ kind: 'redirect', location: 'https://elsewhere.invalid/x', times: 1 });
      const res = await call('/api/v1/me', { redirect: 'manual' });
      assert.equal(res.status, 302);
      assert.ok(res.headers.get('location')?.startsWith(`${api.url}/`));
      assert.equal(
        (await call('/api/v1/me', { redirect: 'manual' })).headers.get('location'),
        'https://elsewhere.invalid/x',
      );
    });

    it('matches by method, route pattern, exact path and RegExp, in insertion order', async () => {
      api.faults.add({ kind: 'status', status: 501, method: 'POST', path: '/api/v1/orders/:id/action' });
      api.faults.add({ kind: 'status', status: 502, path: '/api/v1/balance', times: 2 });
      api.faults.add({ kind: 'status', status: 503, path: /invoices/ });
      api.faults.add({ kind: 'status', status: 504 });
      assert.equal((await action(1001, { action: 'stop' })).status, 501);
      assert.equal(statusOf(1001), 'running', 'a faulted request does not change state');
      assert.equal((await call('/api/v1/balance')).status, 502);
      assert.equal((await call('/api/v1/invoices?page=1')).status, 503);
      assert.equal((await call('/api/v1/me')).status, 504);
      assert.equal(api.faults.active.length, 4);
      assert.equal((await call('/api/v1/balance')).status, 502);
      assert.equal(api.faults.active.length, 3, 'times exhausted');
      api.faults.clear();
      const res = await call('/api/v1/me');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-remaining'), '4', 'faulted requests did not count');
    });
  });

  describe('request log', () => {
    it('records every request as received, with the injected clock', async () => {
      let now = 5000;
      await start({ now: () => now++ });
      await action(1001, { action: 'stop' });
      await fetch(`${api.url}/api/v1/me`, { headers: { Accept: 'application/json', 'User-Agent': 'probe/1' } });
      await raw('GET', '/api/v1/orders/%31%30%30%31?x=%2F', AUTH);
      await fetch(`${api.url}/__mock/log`);
      const [a, b, c, d] = api.requests;
      assert.equal(api.requests.length, 3, 'control calls are not logged');
      assert.deepEqual(
        { ...a, userAgent: undefined },
        {
          seq: 1,
          time: 5000,
          method: 'POST',
          rawPath: '/api/v1/orders/1001/action',
          route: 'POST /api/v1/orders/:id/action',
          orderId: '1001',
          authorization: `Bearer ${DEMO_API_KEY}`,
          userAgent: undefined,
          accept: '*/*',
          contentType: 'application/json',
          body: '{"action":"stop"}',
          status: 202,
        },
      );
      assert.equal(b?.userAgent, 'probe/1');
      assert.equal(b?.accept, 'application/json');
      assert.equal(b?.authorization, undefined);
      assert.equal(b?.status, 401);
      assert.equal(c?.rawPath, '/api/v1/orders/%31%30%30%31?x=%2F');
      assert.equal(c?.orderId, '1001');
      assert.equal(c?.status, 200);
      assert.equal(d, undefined);
      api.clearLog();
      assert.equal(api.requests.length, 0);
      await call('/api/v1/me');
      assert.equal(api.requests[0]?.seq, 4, 'seq keeps counting after clearLog');
    });
  });

  describe('pagination', () => {
    it('standard: links.next until the last page', async () => {
      await start({ pageSize: 4 });
      const first = await getJson('/api/v1/orders');
      assert.equal((first.body.data as Json[]).length, 4);
      assert.deepEqual(first.body.meta, { total: 6, page: 1, per_page: 4 });
      const next = (first.body.links as Json).next as string;
      assert.equal(next, `${api.url}/api/v1/orders?page=2`);
      const second = (await (await fetch(next, { headers: AUTH })).json()) as Json;
      assert.deepEqual(
        (second.data as Json[]).map((o) => o.id),
        [1005, 1006],
      );
      assert.deepEqual(second.links, { next: null });
      assert.deepEqual((await getJson('/api/v1/orders?page=9')).body.data, []);
      assert.equal((await call('/api/v1/orders?page=0')).status, 400);
      assert.equal((await call('/api/v1/orders?page=x')).status, 400);
      const invoices = await getJson('/api/v1/invoices?page=2');
      assert.equal((invoices.body.data as Json[]).length, 1);
    });

    it('bare: Link header; alt: next_page_url', async () => {
      await start({ pageSize: 5, shape: 'bare' });
      const bare = await call('/api/v1/orders');
      assert.equal(bare.headers.get('link'), `<${api.url}/api/v1/orders?page=2>; rel="next"`);
      assert.equal(((await bare.json()) as Json[]).length, 5);
      assert.equal((await call('/api/v1/orders?page=2')).headers.get('link'), null);

      await start({ pageSize: 5, shape: 'alt' });
      const alt = (await getJson('/api/v1/orders')).body;
      assert.equal((alt.orders as Json[]).length, 5);
      assert.equal(alt.next_page_url, `${api.url}/api/v1/orders?page=2`);
      assert.equal((await getJson('/api/v1/orders?page=2')).body.next_page_url, null);
    });
  });

  describe('shapes', () => {
    it('bare: bare arrays and objects, string ids, state vocabulary', async () => {
      await start({ shape: 'bare' });
      const orders = (await (await call('/api/v1/orders')).json()) as Json[];
      assert.ok(Array.isArray(orders));
      assert.deepEqual(
        orders.map((o) => o.state),
        ['active', 'active', 'offline', 'offline', 'suspended', 'pending'],
      );
      assert.equal(orders[0]?.id, '1001');
      assert.equal(orders[0]?.status, undefined);
      assert.equal((await getJson('/api/v1/orders/1003')).body.state, 'offline');
      assert.deepEqual((await getJson('/api/v1/balance')).body, { amount: '42.50', currency: 'USD' });
      assert.equal((await getJson('/api/v1/me')).body.id, '4242');
      const invoices = (await (await call('/api/v1/invoices')).json()) as Json[];
      assert.equal(invoices[0]?.amount, '148.60');
      const res = await action(1001, { action: 'stop' });
      assert.equal(res.status, 202);
      assert.equal(((await res.json()) as Json).state, 'pending');
    });

    it('alt: wrapped lists, renamed fields, power_status, 204 actions', async () => {
      await start({ shape: 'alt' });
      const orders = (await getJson('/api/v1/orders')).body.orders as Json[];
      assert.equal(orders[0]?.order_id, 1001);
      assert.equal(orders[0]?.hostname, 'web-frontend-01');
      assert.deepEqual(
        orders.map((o) => o.power_status),
        ['on', 'on', 'off', 'off', 'suspended', 'booting'],
      );
      assert.equal(((await getJson('/api/v1/orders/1002')).body.order as Json).hostname, 'db-primary');
      assert.deepEqual((await getJson('/api/v1/balance')).body, { data: { credit: '42.50', currency_code: 'GBP' } });
      assert.equal(((await getJson('/api/v1/me')).body.user as Json).name, 'Ada Lovelace');
      assert.equal(((await getJson('/api/v1/invoices')).body.invoices as Json[]).length, 5);
      const res = await action(1001, { action: 'restart' });
      assert.equal(res.status, 204);
      assert.equal(await res.text(), '');
      assert.equal(((await getJson('/api/v1/orders/1001')).body.order as Json).power_status, 'rebooting');
      await waitFor(() => statusOf(1001) === 'running');
    });
  });

  describe('control endpoints', () => {
    beforeEach(() => start({ rateLimit: { limit: 1, windowMs: 60_000 } }));

    const post = (path: string, body?: unknown): Promise<Response> =>
      fetch(`${api.url}/__mock/${path}`, {
        method: 'POST',
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    it('GET /__mock/log never echoes keys', async () => {
      await call('/api/v1/me');
      await fetch(`${api.url}/api/v1/me`, { headers: { Authorization: 'Bearer wrong' } });
      await fetch(`${api.url}/api/v1/me`);
      const res = await fetch(`${api.url}/__mock/log`);
      const text = await res.text();
      assert.ok(!text.includes(DEMO_API_KEY));
      assert.ok(!text.includes('wrong'));
      const log = JSON.parse(text) as Json[];
      assert.deepEqual(
        log.map((r) => [r.hasAuthorization, r.authorizationMatchesKey, 'authorization' in r]),
        [
          [true, 0, false],
          [true, null, false],
          [false, null, false],
        ],
      );
      assert.equal((await post('log/clear')).status, 200);
      assert.equal(api.requests.length, 0);
    });

    it('adds and clears faults', async () => {
      assert.equal((await post('faults', { kind: 'status', status: 418, path: '/api/v1/me', times: 1 })).status, 200);
      assert.equal((await call('/api/v1/me')).status, 418);
      await post('faults', { kind: 'hang' });
      assert.equal(api.faults.active.length, 1);
      assert.equal((await post('faults/clear')).status, 200);
      assert.equal(api.faults.active.length, 0);
      for (const bad of [{ kind: 'nope' }, { kind: 'status', status: 'x' }, { kind: 'delay', times: -1 }, []]) {
        const res = await post('faults', bad);
        assert.equal(res.status, 400, JSON.stringify(bad));
        assert.equal(((await res.json()) as Json).error, 'invalid_request');
      }
    });

    it("changes an order's state from outside, as the provider's panel would", async () => {
      assert.equal((await post('orders/state', { id: 1001, status: 'suspended' })).status, 200);
      assert.equal(statusOf(1001), 'suspended');
      assert.equal((await post('orders/state', { id: '1001', status: 'running' })).status, 200);
      assert.equal(statusOf(1001), 'running');
      assert.equal((await post('orders/state', { id: 999_999, status: 'stopped' })).status, 404);
      for (const bad of [{ id: 1001, status: 'exploded' }, { status: 'stopped' }, []]) {
        assert.equal((await post('orders/state', bad)).status, 400, JSON.stringify(bad));
      }
    });

    it('resets state, log, faults and sets keys and transition time', async () => {
      assert.equal((await post('transition', { ms: 5 })).status, 200);
      await action(1001, { action: 'stop' });
      await waitFor(() => statusOf(1001) === 'stopped');
      api.faults.add({ kind: 'hang' });
      assert.equal((await post('reset')).status, 200);
      assert.equal(statusOf(1001), 'running');
      assert.equal(api.requests.length, 0);
      assert.equal(api.faults.active.length, 0);

      assert.equal((await post('keys', { keys: ['fresh'] })).status, 200);
      assert.equal((await call('/api/v1/me')).status, 401);
      const res = await fetch(`${api.url}/api/v1/me`, { headers: { Authorization: 'Bearer fresh' } });
      assert.equal(res.status, 200);
      assert.equal((await post('keys', { keys: [] })).status, 200);
      assert.equal((await post('keys', { keys: 'x' })).status, 400);
      assert.equal((await post('transition', { ms: -1 })).status, 400);
      assert.equal((await post('transition', '{')).status, 400);
      assert.equal((await fetch(`${api.url}/__mock/nothing`)).status, 404);
    });
  });

  describe('robustness', () => {
    beforeEach(() => start());

    it('caps request bodies at 64 KB', async () => {
      const res = await action(1001, { action: 'stop', pad: 'x'.repeat(100_000) });
      assert.equal(res.status, 413);
      assert.equal(((await res.json()) as Json).error, 'payload_too_large');
      assert.equal(statusOf(1001), 'running');
    });

    it('turns handler errors into a JSON 500 and keeps serving', async () => {
      api.state.orders = null as unknown as OrderRecord[];
      const { res, body } = await getJson('/api/v1/orders');
      assert.equal(res.status, 500);
      assert.equal(body.error, 'server_error');
      api.state.reset();
      assert.equal((await call('/api/v1/orders')).status, 200);
    });

    it('answers CORS preflights without logging them', async () => {
      const res = await raw('OPTIONS', '/api/v1/me', {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.equal(api.requests.length, 0);
    });

    it('close() ends keep-alive connections and can be called twice', async () => {
      await call('/api/v1/me');
      const t0 = Date.now();
      await Promise.all([api.close(), api.close()]);
      assert.ok(Date.now() - t0 < 1000);
      await assert.rejects(fetch(`${api.url}/api/v1/me`));
    });
  });

  describe('CLI arguments', () => {
    it('parses port, flags and environment', () => {
      assert.deepEqual(
        parseArgs(['8123', '--transition-ms', '500', '--rate-limit=0', '--page-size', '2', '--shape', 'alt'], {}),
        {
          host: '127.0.0.1',
          quiet: false,
          port: 8123,
          transitionMs: 500,
          rateLimit: false,
          pageSize: 2,
          shape: 'alt',
        },
      );
      assert.deepEqual(parseArgs(['--rate-limit', '30'], { MOCK_API_PORT: '9000' }), {
        host: '127.0.0.1',
        quiet: false,
        port: 9000,
        rateLimit: { limit: 30, windowMs: 60_000 },
      });
      assert.equal(typeof parseArgs(['--shape', 'weird'], {}), 'string');
      assert.equal(typeof parseArgs(['--page-size'], {}), 'string');
      assert.equal(typeof parseArgs(['70000'], {}), 'string');
      assert.equal(typeof parseArgs(['--bogus', '1'], {}), 'string');
    });
  });
});
