import assert from 'node:assert/strict';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import {
  type HostileAnswer,
  hostileAnswer,
  hostileCorpus,
  HOSTILE_NAMES,
  type HostileName,
  serveHostile,
} from '../mock-api/hostile';
import { DEMO_API_KEY, type MockApi, startMockApi } from '../mock-api/server';

type Json = Record<string, unknown>;

let api: MockApi;

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

/** A plain http.request: the bytes as sent, no JSON client in between. */
function raw(path: string): Promise<RawResponse> {
  const headers = { Authorization: `Bearer ${DEMO_API_KEY}` };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: new URL(api.url).hostname, port: api.port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Expected {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The answer the entry promises for this path, whether it is fixed or computed per page. */
function expected(entry: HostileAnswer, path: string): Expected {
  if (typeof entry.body !== 'function') return { status: entry.status, headers: entry.headers, body: entry.body };
  const answer = entry.body(path, api.url);
  return { status: answer.status, headers: answer.headers ?? {}, body: answer.body };
}

function assertServed(res: RawResponse, want: Expected, label: string): void {
  assert.equal(res.status, want.status, label);
  assert.ok(res.bytes.equals(Buffer.from(want.body, 'utf8')), `${label}: body is not byte-exact`);
  for (const [name, value] of Object.entries(want.headers)) {
    assert.equal(res.headers[name.toLowerCase()], value, `${label}: header ${name}`);
  }
}

describe('mock API hostile corpus', () => {
  beforeEach(async () => {
    api = await startMockApi({ rateLimit: false });
  });
  afterEach(() => api.close());

  it('names every entry once, with a description, and builds each on its own', () => {
    const corpus = hostileCorpus();
    assert.deepEqual(
      corpus.map((e) => e.name),
      HOSTILE_NAMES,
    );
    assert.equal(new Set(HOSTILE_NAMES).size, HOSTILE_NAMES.length);
    assert.ok(corpus.every((e) => e.description.length > 10 && e.path.startsWith('/api/v1/')));
  });

  for (const name of HOSTILE_NAMES) {
    it(`serves ${name} byte-exact`, async () => {
      const rule = serveHostile(api, name, { times: 2 });
      const entry = { ...hostileAnswer(name), headers: rule.headers ?? {}, body: rule.body ?? '' };
      for (const path of [entry.path, `${entry.path}?page=2`]) {
        assertServed(await raw(path), expected(entry, path), `${name} at ${path}`);
      }
      assert.deepEqual(
        api.requests.map((r) => r.fault),
        ['raw', 'raw'],
      );
    });
  }

  it('has the promised properties', () => {
    const text = (name: HostileName): string => {
      const { body } = hostileAnswer(name);
      return typeof body === 'string' ? body : body('/api/v1/orders', '').body;
    };
    assert.equal(Buffer.byteLength(text('ordersNested23')), 255);
    assert.equal(text('ordersNested23').split('"orders"').length - 1, 23);
    assert.equal(text('invoicesNested20').split('"invoices"').length - 1, 20);
    assert.equal(JSON.parse(text('balancePaddedString')), `1${' '.repeat(1600)}!`);
    assert.equal((JSON.parse(text('balancePaddedField')) as Json).balance, `1${' '.repeat(1600)}!`);
    assert.equal(text('errorAngleBrackets80k'), '<'.repeat(80 * 1024));
    assert.equal(hostileAnswer('errorAngleBrackets80k').status, 500);
    assert.ok(text('dataNested100k').startsWith('{"data":'.repeat(100_000)));
    assert.ok(text('orderDeepArray20k').includes(`${'['.repeat(20_000)}]`));
    assert.ok(text('idLeadingSpace').includes('"id":7,') && text('idLeadingSpace').includes('"id":" 7"'));
    assert.ok(text('idBeyondSafeInteger').includes('"id":9007199254740992,'));
    assert.ok(text('idBeyondSafeInteger').includes('"id":9007199254740993,'));
    assert.ok(text('idTwentyDigits').includes('"id":12345678901234567890,'));
    assert.ok(text('idLoneSurrogate').includes('"id":"\\ud800"'));
    assert.equal(hostileAnswer('retryAfterHuge').headers['Retry-After'], '999999999');
    assert.match(hostileAnswer('retryAfterDate2099').headers['Retry-After'] ?? '', /^\w{3}, \d\d \w{3} 2099 .* GMT$/);
    const garbage = hostileAnswer('retryAfterGarbage');
    assert.deepEqual([garbage.status, garbage.headers['Retry-After']], [503, 'foo 2099']);
    const reset = Number(hostileAnswer('rateLimitExhausted').headers['X-RateLimit-Reset']);
    assert.ok(Math.abs(reset - (Date.now() / 1000 + 3600)) < 5);
    assert.equal(hostileAnswer('rateLimitResetHuge').headers['X-RateLimit-Reset'], '99999999999999');
    assert.ok(
      Buffer.from(text('jsonWithBom'))
        .subarray(0, 3)
        .equals(Buffer.from([0xef, 0xbb, 0xbf])),
    );
    const traversal = JSON.parse(text('nextLinkTraversal')) as { links: Json };
    assert.equal(traversal.links.next, '/../../admin/delete-everything');
    const big = text('orderList10MB');
    assert.ok(big.length >= 10 * 1024 * 1024);
    const parsed = JSON.parse(big) as { data: unknown[]; meta: { total: number } };
    assert.equal(parsed.meta.total, parsed.data.length);
  });

  it('chains endless pages of about 1.25 MiB, each pointing one further', async () => {
    serveHostile(api, 'endlessPages');
    let next = `${api.url}/api/v1/orders`;
    const ids = new Set<unknown>();
    for (let n = 1; n <= 3; n++) {
      const res = await raw(next.slice(api.url.length));
      assert.ok(Math.abs(res.bytes.length - 1.25 * 1024 * 1024) < 2048, `page ${n} is ${res.bytes.length} bytes`);
      const body = JSON.parse(res.bytes.toString()) as { data: Json[]; links: { next: string } };
      for (const o of body.data) ids.add(o.id);
      assert.equal(body.links.next, `${api.url}/api/v1/orders?page=${n + 1}`);
      assert.equal(res.headers.link, `<${body.links.next}>; rel="next"`);
      next = body.links.next;
    }
    assert.ok(ids.size > 10_000, 'ids do not repeat across pages');
  });

  it('serves entries by name through the control endpoint', async () => {
    const index = (await (await fetch(`${api.url}/__mock/hostile`)).json()) as Json[];
    assert.deepEqual(
      index.map((e) => e.name),
      HOSTILE_NAMES,
    );
    const post = (body: unknown): Promise<Response> =>
      fetch(`${api.url}/__mock/hostile`, { method: 'POST', body: JSON.stringify(body) });
    assert.equal((await post({ name: 'retryAfterHuge', path: '/api/v1/balance', times: 1 })).status, 200);
    const res = await raw('/api/v1/balance');
    assert.deepEqual([res.status, res.headers['retry-after']], [429, '999999999']);
    assert.equal((await raw('/api/v1/balance')).status, 200);
    assert.equal((await post({ name: 'endlessPages' })).status, 200);
    const listed = (await (await fetch(`${api.url}/__mock/faults`)).json()) as Json[];
    assert.equal(listed[0]?.body, '[function]');
    assert.ok((await raw('/api/v1/orders?page=7')).bytes.toString().includes('?page=8"'));
    assert.equal((await post({ name: 'noSuchEntry' })).status, 400);
    assert.equal((await post({ name: 'jsonWithBom', times: -1 })).status, 400);
  });
});
