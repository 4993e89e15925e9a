import assert from 'node:assert/strict';
import { parseArgs } from '../mock-api/main';
import { DEMO_API_KEY, type MockApi, type MockApiOptions, startMockApi } from '../mock-api/server';

type Json = Record<string, unknown>;

const AUTH = { Authorization: `Bearer ${DEMO_API_KEY}` };
const JSONAPI_TYPE = 'application/vnd.api+json';

let api: MockApi;
const started: MockApi[] = [];

async function start(options: MockApiOptions): Promise<MockApi> {
  api = await startMockApi({ transitionMs: 20, ...options });
  started.push(api);
  return api;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((a) => a.close()));
});

/** Takes a path or an absolute URL, as a client following links would. */
async function get(pathOrUrl: string): Promise<{ res: Response; body: Json }> {
  const res = await fetch(pathOrUrl.startsWith('http') ? pathOrUrl : `${api.url}${pathOrUrl}`, { headers: AUTH });
  return { res, body: (await res.json()) as Json };
}

async function act(id: number, verb: string): Promise<{ res: Response; body: Json }> {
  const res = await fetch(`${api.url}/api/v1/orders/${id}/action`, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: verb }),
  });
  return { res, body: (await res.json()) as Json };
}

async function waitFor(predicate: () => Promise<boolean>, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const seedIds = (): string[] => api.state.orders.map((o) => String(o.id));

/** Walks a 'paged' list the only way it allows: counting current_page up to last_page. */
async function walkPaged(path: string): Promise<Json[]> {
  const pages: Json[] = [];
  for (let n = 1; ; n++) {
    const { res, body } = await get(`${path}?page=${n}`);
    assert.equal(res.status, 200);
    assert.equal(body.next_page_url, null, `page ${n} must not announce its successor`);
    assert.equal(body.current_page, n);
    pages.push(body);
    if (n >= (body.last_page as number)) return pages;
  }
}

/** Walks a 'jsonapi' list by links.next only. */
async function walkLinks(path: string): Promise<Json[]> {
  const pages: Json[] = [];
  let next: unknown = path;
  while (typeof next === 'string') {
    const { res, body } = await get(next);
    assert.equal(res.headers.get('content-type'), JSONAPI_TYPE);
    pages.push(body);
    next = (body.links as Json).next;
    assert.ok(pages.length < 20, 'links.next must end');
  }
  return pages;
}

describe('mock API shapes: paged', () => {
  it('paginates by default with two per page and never sends next_page_url', async () => {
    await start({ shape: 'paged' });
    const pages = await walkPaged('/api/v1/orders');
    assert.equal(pages.length, 3);
    const first = pages[0] ?? {};
    assert.deepEqual(
      { ...first, data: undefined },
      {
        current_page: 1,
        data: undefined,
        first_page_url: `${api.url}/api/v1/orders?page=1`,
        from: 1,
        last_page: 3,
        last_page_url: `${api.url}/api/v1/orders?page=3`,
        next_page_url: null,
        path: `${api.url}/api/v1/orders`,
        per_page: 2,
        prev_page_url: null,
        to: 2,
        total: 6,
      },
    );
    assert.equal(pages[1]?.prev_page_url, `${api.url}/api/v1/orders?page=1`);
    const orders = pages.flatMap((p) => p.data as Json[]);
    assert.deepEqual(
      orders.map((o) => String(o.service_id)),
      seedIds(),
    );
    assert.deepEqual(
      orders.map((o) => `${String(o.domainstatus)}/${String(o.power_state)}`),
      ['Active/online', 'Active/online', 'Active/offline', 'Active/offline', 'Suspended/offline', 'Active/booting'],
    );
    assert.equal(orders[0]?.label, 'web-frontend-01');
    assert.equal(orders[0]?.dedicated_ip, '203.0.113.10');
    const beyond = (await get('/api/v1/orders?page=9')).body;
    assert.deepEqual([beyond.data, beyond.from, beyond.to], [[], null, null]);
    assert.equal((await fetch(`${api.url}/api/v1/orders?page=0`, { headers: AUTH })).status, 400);
  });

  it('honours an explicit pageSize and pages invoices the same way', async () => {
    await start({ shape: 'paged', pageSize: 4 });
    assert.deepEqual(
      (await walkPaged('/api/v1/orders')).map((p) => (p.data as Json[]).length),
      [4, 2],
    );
    const invoices = (await walkPaged('/api/v1/invoices')).flatMap((p) => p.data as Json[]);
    assert.deepEqual(
      invoices.map((i) => i.status),
      ['Paid', 'Paid', 'Paid', 'Unpaid', 'Unpaid'],
    );
    assert.deepEqual(invoices[0], {
      id: 38,
      invoice_num: 'INV-2025-0038',
      date: '2025-10-01',
      duedate: '2025-10-15',
      total: '148.60',
      currency_code: 'EUR',
      status: 'Paid',
      url: `${api.url}/client/invoices/38`,
    });
  });

  it('reads one order, the account and the balance, and runs an action to completion', async () => {
    await start({ shape: 'paged' });
    const one = (await get('/api/v1/orders/1003')).body.data as Json;
    assert.deepEqual([one.service_id, one.label, one.power_state], [1003, 'staging-box', 'offline']);
    const me = (await get('/api/v1/me')).body.data as Json;
    assert.deepEqual([me.firstname, me.lastname, me.email], ['Ada', 'Lovelace', 'ada@example.com']);
    assert.deepEqual((await get('/api/v1/balance')).body, { data: { credit_balance: 42.5, currency_code: 'EUR' } });
    const { res, body } = await act(1003, 'start');
    assert.equal(res.status, 200);
    assert.deepEqual(body, { result: 'success' });
    assert.equal(((await get('/api/v1/orders/1003')).body.data as Json).power_state, 'booting');
    await waitFor(async () => ((await get('/api/v1/orders/1003')).body.data as Json).power_state === 'online');
    assert.equal((await act(1005, 'start')).res.status, 409);
  });
});

describe('mock API shapes: jsonapi', () => {
  it('follows links.next with page[number] across every order', async () => {
    await start({ shape: 'jsonapi', pageSize: 2 });
    const pages = await walkLinks('/api/v1/orders');
    assert.equal(pages.length, 3);
    assert.equal((pages[0]?.links as Json).next, `${api.url}/api/v1/orders?page[number]=2&page[size]=2`);
    assert.deepEqual(pages[2]?.meta, { total: 6, page: { number: 3, size: 2 } });
    const orders = pages.flatMap((p) => p.data as Json[]);
    assert.deepEqual(
      orders.map((o) => o.id),
      seedIds(),
    );
    assert.ok(orders.every((o) => o.type === 'orders'));
    const first = orders[0] ?? {};
    assert.deepEqual(first.links, { self: `${api.url}/api/v1/orders/1001` });
    const attrs = first.attributes as Json;
    assert.deepEqual([attrs.name, attrs.status, attrs.ip_address], ['web-frontend-01', 'active', '203.0.113.10']);
    // A plain ?page=2 is not this dialect's parameter: the server answers page 1, as such servers do.
    assert.equal(((await get('/api/v1/orders?page=2')).body.data as Json[])[0]?.id, '1001');
    assert.equal((await fetch(`${api.url}/api/v1/orders?page[number]=x`, { headers: AUTH })).status, 400);
  });

  it('without pageSize answers one page whose links.next is null', async () => {
    await start({ shape: 'jsonapi' });
    const { body } = await get('/api/v1/orders');
    assert.equal((body.data as Json[]).length, 6);
    assert.deepEqual(body.meta, { total: 6 });
    assert.deepEqual(body.links, { self: `${api.url}/api/v1/orders`, next: null });
    const invoices = (await get('/api/v1/invoices')).body.data as Json[];
    assert.deepEqual(
      invoices.map((i) => (i.attributes as Json).status),
      ['Paid', 'Paid', 'Paid', 'Overdue', 'Unpaid'],
    );
    assert.deepEqual((invoices[0]?.attributes as Json).invoice_number, 'INV-2025-0038');
  });

  it('reads one order, the account and the balance, and runs an action to completion', async () => {
    await start({ shape: 'jsonapi' });
    const one = (await get('/api/v1/orders/1001')).body.data as Json;
    assert.deepEqual([one.type, one.id], ['orders', '1001']);
    const me = (await get('/api/v1/me')).body.data as Json;
    assert.deepEqual([me.type, me.id], ['users', '4242']);
    assert.deepEqual((me.attributes as Json).first_name, 'Ada');
    assert.deepEqual((me.attributes as Json).last_name, 'Lovelace');
    assert.deepEqual((await get('/api/v1/balance')).body, {
      data: { type: 'balances', id: '1', attributes: { amount: '42.50', currency: 'EUR' } },
    });
    const { res, body } = await act(1001, 'stop');
    assert.equal(res.status, 202);
    assert.equal(res.headers.get('content-type'), JSONAPI_TYPE);
    assert.deepEqual(body.meta, { message: 'Stopping web-frontend-01' });
    assert.equal(((body.data as Json).attributes as Json).status, 'powering_off');
    const status = async (): Promise<unknown> =>
      (((await get('/api/v1/orders/1001')).body.data as Json).attributes as Json).status;
    await waitFor(async () => (await status()) === 'powered_off');
    const refused = await act(1006, 'stop');
    assert.deepEqual([refused.res.status, refused.body.error], [409, 'action_in_progress']);
  });
});

describe('mock API shapes: shared machinery', () => {
  for (const shape of ['jsonapi', 'paged'] as const) {
    it(`${shape}: rate limit, faults and the request log work as in the other shapes`, async () => {
      await start({ shape, rateLimit: { limit: 2, windowMs: 60_000 } });
      api.faults.add({ kind: 'status', status: 503, path: '/api/v1/balance', times: 1 });
      assert.equal((await fetch(`${api.url}/api/v1/balance`, { headers: AUTH })).status, 503);
      assert.equal((await get('/api/v1/balance')).res.status, 200);
      assert.equal((await get('/api/v1/me')).res.status, 200);
      const limited = await get('/api/v1/me');
      assert.deepEqual([limited.res.status, limited.body.error], [429, 'rate_limited']);
      assert.deepEqual(
        api.requests.map((r) => [r.status, r.fault]),
        [
          [503, 'status'],
          [200, undefined],
          [200, undefined],
          [429, undefined],
        ],
      );
      const unauthorized = await fetch(`${api.url}/api/v1/orders`);
      assert.deepEqual(await unauthorized.json(), { error: 'unauthorized', message: 'Invalid or missing API key' });
    });
  }

  it('the CLI accepts both shapes', () => {
    for (const shape of ['jsonapi', 'paged'] as const) {
      assert.deepEqual(parseArgs(['--shape', shape], {}), { ...(parseArgs([], {}) as MockApiOptions), shape });
    }
  });
});
