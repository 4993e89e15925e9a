import assert from 'node:assert/strict';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { DEMO_API_KEY, type MockApi, type MockApiOptions, startMockApi } from '../mock-api/server';

type Json = Record<string, unknown>;

let api: MockApi;
const started: MockApi[] = [];

async function start(options: MockApiOptions = {}): Promise<MockApi> {
  api = await startMockApi({ transitionMs: 20, ...options });
  started.push(api);
  return api;
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

/** A plain http.request: the bytes as sent, no JSON client in between. */
function raw(
  method: string,
  path: string,
  key: string | undefined = DEMO_API_KEY,
  body?: string,
): Promise<RawResponse> {
  const headers = key === undefined ? {} : { Authorization: `Bearer ${key}` };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: new URL(api.url).hostname, port: api.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const control = (path: string, body: unknown): Promise<Response> =>
  fetch(`${api.url}/__mock/${path}`, { method: 'POST', body: JSON.stringify(body) });

describe('mock API hostile faults', () => {
  afterEach(async () => {
    await Promise.all(started.splice(0).map((a) => a.close()));
  });

  describe('raw', () => {
    it('serves status, headers and body verbatim, with its headers winning', async () => {
      await start();
      const body = '\uFEFF{"data": [1,2,3]}  \u00e9';
      api.faults.add({
        kind: 'raw',
        path: '/api/v1/orders',
        times: 1,
        status: 418,
        body,
        headers: { 'Content-Type': 'text/x-odd', 'X-Request-Id': 'chosen', 'X-Extra': 'yes' },
      });
      const res = await raw('GET', '/api/v1/orders?x=1');
      assert.equal(res.status, 418);
      assert.deepEqual(res.bytes, Buffer.from(body, 'utf8'));
      assert.equal(res.headers['content-type'], 'text/x-odd');
      assert.equal(res.headers['content-length'], String(Buffer.byteLength(body)));
      assert.equal(res.headers['x-request-id'], 'chosen');
      assert.equal(res.headers['x-extra'], 'yes');
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.equal((await raw('GET', '/api/v1/orders')).status, 200, 'times: 1 is used up');
    });

    it('replaces the answer before auth: no state change, no rate-limit use, logged as raw', async () => {
      await start({ rateLimit: { limit: 1, windowMs: 60_000 } });
      api.faults.add({ kind: 'raw', method: 'POST', status: 202, body: '', times: 1 });
      const res = await raw('POST', '/api/v1/orders/1003/action', 'wrong-key', '{"action":"start"}');
      assert.equal(res.status, 202);
      assert.equal(res.bytes.length, 0);
      assert.equal(res.headers['content-type'], undefined);
      assert.equal(api.state.getOrder(1003)?.status, 'stopped');
      assert.equal((await raw('GET', '/api/v1/me')).status, 200);
      assert.deepEqual(
        api.requests.map((r) => [r.status, r.fault]),
        [
          [202, 'raw'],
          [200, undefined],
        ],
      );
    });

    it('computes each answer with a function of the path, e.g. an endless chain', async () => {
      await start();
      api.faults.add({
        kind: 'raw',
        path: '/api/v1/orders',
        body: (rawPath, baseUrl) => {
          const n = Number(/page=(\d+)/.exec(rawPath)?.[1] ?? '1');
          return {
            status: 200,
            headers: { Link: `<${baseUrl}/api/v1/orders?page=${n + 1}>; rel="next"` },
            body: `{"page":${n}}`,
          };
        },
      });
      for (const n of [1, 2, 50]) {
        const res = await raw('GET', n === 1 ? '/api/v1/orders' : `/api/v1/orders?page=${n}`);
        assert.equal(res.bytes.toString(), `{"page":${n}}`);
        assert.equal(res.headers.link, `<${api.url}/api/v1/orders?page=${n + 1}>; rel="next"`);
      }
    });

    it('is available through the control endpoint with a string body', async () => {
      await start();
      const ok = await control('faults', {
        kind: 'raw',
        path: '/api/v1/balance',
        status: 200,
        headers: { 'Retry-After': 'soon' },
        body: '"1  !"',
      });
      assert.equal(ok.status, 200);
      const res = await raw('GET', '/api/v1/balance');
      assert.deepEqual([res.status, res.bytes.toString(), res.headers['retry-after']], [200, '"1  !"', 'soon']);
      const listed = (await (await fetch(`${api.url}/__mock/faults`)).json()) as Json[];
      assert.equal(listed[0]?.body, '"1  !"');
      assert.equal((await control('faults', { kind: 'raw', body: 5 })).status, 400);
      assert.equal((await control('faults', { kind: 'raw', headers: { 'Bad Name': 'x' } })).status, 400);
      assert.equal((await control('faults', { kind: 'raw', headers: { 'X-Ok': 'line\r\nbreak' } })).status, 400);
      assert.equal((await control('faults', { kind: 'raw', headers: ['x'] })).status, 400);
    });
  });

  describe('echoKey', () => {
    const key = 'sk_live_0123456789abcdef';

    for (const status of [200, 401, 500]) {
      it(`echoes the bearer key in headers and body at ${status}`, async () => {
        await start({ keys: [key] });
        api.faults.add({ kind: 'echoKey', path: '/api/v1/orders', ...(status === 200 ? {} : { status }) });
        const res = await raw('GET', '/api/v1/orders', key);
        assert.equal(res.status, status);
        assert.equal(res.headers['x-request-id'], key);
        assert.equal(res.headers['x-api-key'], key);
        assert.equal(res.headers['www-authenticate']?.includes(key) ?? false, status === 401);
        const body = JSON.parse(res.bytes.toString()) as Json;
        assert.equal(body.api_key, key);
        assert.equal(body[key], 'api_key');
        assert.ok(String(body.message).includes(key));
        assert.ok(String(body.error).includes(key));
        assert.equal((body.data as Json[])[0]?.name, key);
      });
    }

    it('echoes whatever key a client sends, also one the server does not know, and works via control', async () => {
      await start();
      assert.equal((await control('faults', { kind: 'echoKey', status: 401 })).status, 200);
      const res = await raw('GET', '/api/v1/me', 'not-a-known-key');
      assert.equal(res.status, 401);
      assert.equal(res.headers['x-request-id'], 'not-a-known-key');
      assert.equal(api.requests[0]?.fault, 'echoKey');
    });
  });
});
