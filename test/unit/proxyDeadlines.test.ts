import assert from 'node:assert/strict';
import { ApiClient, type ApiClientOptions } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { Store } from '../../src/store/Store';
import { type BadProxy, startBadProxy } from './helpers/badProxies';
import { failure } from './helpers/failure';

/** Through a proxy only https:// origins are tunnelled; the name need not resolve, as nothing gets past the proxy. */
const BASE_URL = 'https://api.example.test';

describe('deadlines through proxies that drop or swallow connections (unit, on loopback)', function () {
  this.timeout(15_000);
  const clients: ApiClient[] = [];
  const proxies: BadProxy[] = [];

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.dispose();
    for (const p of proxies.splice(0)) await p.close();
  });

  async function proxy(behaviour: 'dropping' | 'blackHole'): Promise<BadProxy> {
    const started = await startBadProxy(behaviour);
    proxies.push(started);
    return started;
  }

  function client(proxyUrl: string, options: Partial<ApiClientOptions> = {}): ApiClient {
    const created = new ApiClient({
      baseUrl: BASE_URL,
      getKey: () => 'key-0123456789',
      userAgent: 'deadline-test',
      limiters: new LimiterRegistry(61_000),
      retry: { baseDelayMs: 20, maxDelayMs: 80 },
      network: { proxy: proxyUrl },
      ...options,
    });
    clients.push(created);
    return created;
  }

  it('a proxy that closes the connection on CONNECT: the request ends after a few tries, naming the proxy and its setting, without a reconnect storm', async () => {
    const p = await proxy('dropping');
    const api = client(`http://ada:s3cret@${p.address}`, { timeouts: { connectMs: 1_000, totalMs: 4_000 } });
    const error = await failure(api.getBalance());
    assert.equal(error.kind, 'network');
    assert.equal(error.code, 'proxy_dropped');
    assert.equal(error.maybeSent, false);
    assert.deepEqual(error.proxy, { address: p.address, setting: 'http.proxy' });
    assert.deepEqual(error.reason, { rule: 'proxyDropped', address: p.address, setting: 'http.proxy' });
    assert.ok(!JSON.stringify({ message: error.message, reason: error.reason }).includes('s3cret'));
    assert.ok(p.connections <= 3, `one connection per try, three tries: ${p.connections} connections`);
  });

  it('a proxy that accepts the connection and never answers: the connect deadline ends the request, naming the proxy', async () => {
    const p = await proxy('blackHole');
    const api = client(p.url, { timeouts: { connectMs: 300, totalMs: 60_000 }, retry: { maxAttempts: 1 } });
    const error = await failure(api.getBalance());
    assert.equal(error.kind, 'timeout');
    assert.equal(error.code, 'proxy_timeout');
    assert.equal(error.maybeSent, false);
    assert.deepEqual(error.reason, { rule: 'proxyTimeout', address: p.address, setting: 'http.proxy', seconds: 1 });
    await waitFor(() => p.open === 0);
    assert.equal(p.open, 0, 'the connection that never answered was closed');
  });

  it('the overall deadline ends a request whatever the dispatcher does with its abort, and tears the connection down', async () => {
    const p = await proxy('blackHole');
    // A connect deadline far beyond the overall one: only the overall deadline can end this request.
    const api = client(p.url, { timeouts: { connectMs: 30_000, totalMs: 300 }, retry: { maxAttempts: 1 } });
    const error = await failure(api.getBalance());
    assert.equal(error.kind, 'timeout');
    assert.equal(error.maybeSent, false, 'no connection to the API was ever made');
    await waitFor(() => p.open === 0);
    assert.equal(p.open, 0, 'the connection under way was torn down');
    // The client still works: the next request takes a new connection (and meets the same proxy).
    assert.equal((await failure(api.getAccount())).kind, 'timeout');
    assert.equal(p.connections, 2);
  });

  it('a Refresh through a proxy that drops every connection ends, and the next Refresh is a new request, not a join', async () => {
    const p = await proxy('dropping');
    const store = new Store({
      createClient: (options) => client(p.url, { ...options, retry: { baseDelayMs: 20, maxDelayMs: 80 } }),
      getKey: () => Promise.resolve('key-0123456789'),
      settings: () => ({ baseUrl: BASE_URL, requestsPerMinute: 100, requestTimeoutMs: 4_000 }),
    });
    try {
      await store.keyChanged();
      await store.refresh(['balance'], 'user');
      assert.equal(store.balance.loading, false);
      assert.equal(store.balance.error?.code, 'proxy_dropped');
      const before = p.connections;
      await store.refresh(['balance'], 'user');
      assert.ok(p.connections > before, 'a new request went out');
      assert.equal(store.balance.loading, false);
    } finally {
      store.dispose();
    }
  });
});

async function waitFor(done: () => boolean, ms = 2_000): Promise<void> {
  for (const started = Date.now(); !done() && Date.now() - started < ms;) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
