import assert from 'node:assert/strict';
import tls from 'node:tls';
import { ApiClient, type ApiClientOptions, type RequestLogEntry } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { createDispatcher, type ConnectionPlan } from '../../src/api/network/dispatcher';
import { decideRoute } from '../../src/api/network/route';
import { type NetworkSettings } from '../../src/api/network/settings';
import { planTrust } from '../../src/api/network/trust';
import { request } from '../../src/api/undici';
import { Store } from '../../src/store/Store';
import { DEMO_API_KEY, type MockApi, startMockApi } from '../mock-api/server';
import { type ConnectProxy, startConnectProxy } from './helpers/connectProxy';
import { makeTestCa, startTlsFront, type TestCa, type TlsFront } from './helpers/tlsFront';
import { failure } from './helpers/failure';

const KEY = DEMO_API_KEY;

describe('proxies and TLS inspection, on loopback (unit)', function () {
  this.timeout(20_000);
  let ca: TestCa;
  let mock: MockApi;
  let front: TlsFront;
  let baseUrl: string;
  let logs: RequestLogEntry[];
  let warnings: string[];
  const clients: ApiClient[] = [];
  const proxies: ConnectProxy[] = [];

  before(async () => {
    ca = await makeTestCa();
  });
  after(() => ca.remove());

  beforeEach(async () => {
    logs = [];
    warnings = [];
    mock = await startMockApi({ transitionMs: 50 });
    front = await startTlsFront(mock.port, ca);
    baseUrl = `https://api.test:${front.port}`;
  });

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.dispose();
    for (const p of proxies.splice(0)) await p.close();
    await front.close();
    await mock.close();
    const written = JSON.stringify({ logs, warnings });
    assert.ok(!written.includes(KEY), 'the key leaked into a log entry');
    assert.ok(!written.includes('s3cret'), 'a proxy password leaked into a log entry');
  });

  async function proxy(options: Parameters<typeof startConnectProxy>[0] = {}): Promise<ConnectProxy> {
    const started = await startConnectProxy(options);
    proxies.push(started);
    return started;
  }

  /** The CA file is what a user behind TLS inspection supplies; most tests trust it, as such a user would. */
  function trusted(network: NetworkSettings): NetworkSettings {
    return { ...network, env: { NODE_EXTRA_CA_CERTS: ca.caFile, ...network.env } };
  }

  function client(network: NetworkSettings, options: Partial<ApiClientOptions> = {}): ApiClient {
    const created = new ApiClient({
      baseUrl,
      getKey: () => KEY,
      userAgent: 'proxy-test',
      limiters: new LimiterRegistry(61_000),
      retry: { baseDelayMs: 10, maxDelayMs: 40 },
      onRequest: (entry) => logs.push(entry),
      onWarning: (message) => warnings.push(message),
      network,
      ...options,
    });
    clients.push(created);
    return created;
  }

  const apiRequests = (): MockApi['requests'] => mock.requests.filter((r) => r.rawPath.startsWith('/api/'));

  it('tunnels through http.proxy: one CONNECT per connection to api.test, the key only inside TLS', async () => {
    const p = await proxy();
    const api = client(trusted({ proxy: p.url }));
    await api.getAccount();
    await api.listOrders();
    await Promise.all([api.getBalance(), api.listInvoices(), api.getAccount({ priority: 'user' })]);
    assert.equal(apiRequests().length, 5);
    assert.ok(apiRequests().every((r) => r.authorization === `Bearer ${KEY}`));
    assert.ok(p.connects.length >= 1);
    assert.equal(p.connects.length, front.connections, 'exactly one CONNECT per connection');
    assert.deepEqual(new Set(p.connects.map((c) => c.target)), new Set([`api.test:${front.port}`]));
    assert.deepEqual(p.plain, [], 'nothing went through the proxy in the clear');
    assert.ok(
      p.connects.every((c) => !c.headers.includes(KEY)),
      'the key never reached the proxy',
    );
    assert.ok(
      logs.every((entry) => entry.route === `proxy ${p.address}`),
      JSON.stringify(logs.map((l) => l.route)),
    );
  });

  it('takes HTTPS_PROXY (or https_proxy) from the environment', async () => {
    const p = await proxy();
    await client(trusted({ env: { HTTPS_PROXY: p.address } })).getBalance();
    assert.equal(p.connects.length, 1);
    const lower = await proxy();
    await client(trusted({ env: { https_proxy: lower.url } })).getAccount();
    assert.equal(lower.connects.length, 1);
  });

  it('lets http.proxy beat the environment', async () => {
    const fromSetting = await proxy();
    const fromEnv = await proxy();
    await client(
      trusted({ proxy: fromSetting.url, env: { HTTPS_PROXY: fromEnv.url, HTTP_PROXY: fromEnv.url } }),
    ).getBalance();
    assert.equal(fromSetting.connects.length, 1);
    assert.equal(fromEnv.connects.length, 0);
  });

  it('bypasses the proxy for hosts in http.noProxy, NO_PROXY, or with http.proxySupport off', async () => {
    const p = await proxy();
    const bypasses: NetworkSettings[] = [
      { proxy: p.url, noProxy: ['.test'] },
      { proxy: p.url, env: { NO_PROXY: 'example.com, api.test' } },
      { proxy: p.url, proxySupport: 'off' },
    ];
    for (const network of bypasses) {
      // Directly, `api.test` does not resolve: the failure shows the request went around the proxy.
      const error = await failure(client(trusted(network), { retry: { maxAttempts: 1 } }).getBalance());
      assert.equal(error.kind, 'network', JSON.stringify(network));
      assert.ok(['ENOTFOUND', 'EAI_AGAIN'].includes(error.transportCode ?? ''), error.message);
    }
    assert.equal(p.connects.length, 0);
    assert.ok(logs.length === 3 && logs.every((entry) => entry.route === 'direct'));
  });

  it('does not take NO_PROXY when http.noProxy is set', async () => {
    const p = await proxy();
    await client(trusted({ proxy: p.url, noProxy: ['elsewhere.example'], env: { NO_PROXY: 'api.test' } })).getBalance();
    assert.equal(p.connects.length, 1);
  });

  it('says which proxy wants credentials and where to put them (407), without retrying', async () => {
    const p = await proxy({ credentials: 'ada:s3cret' });
    const error = await failure(client(trusted({ proxy: p.url })).getBalance());
    assert.equal(error.kind, 'badConfig');
    assert.equal(error.code, 'proxy_auth');
    assert.equal(error.status, 407);
    assert.deepEqual(error.proxy, { address: p.address, setting: 'http.proxy' });
    assert.match(
      error.message,
      new RegExp(`proxy ${p.address} \\(from http\\.proxy\\).*407.*http\\.proxyAuthorization`),
    );
    assert.equal(p.connects.length, 1, 'a 407 is not retried');
    assert.equal(apiRequests().length, 0);
  });

  it('sends proxy credentials from the address or from http.proxyAuthorization, on CONNECT only', async () => {
    const p = await proxy({ credentials: 'ada:s3cret' });
    await client(trusted({ proxy: `http://ada:s3cret@${p.address}` })).getBalance();
    await client(
      trusted({ proxy: p.url, proxyAuthorization: `Basic ${Buffer.from('ada:s3cret').toString('base64')}` }),
    ).getBalance();
    assert.equal(apiRequests().length, 2);
    assert.ok(
      apiRequests().every(
        (r) =>
          !JSON.stringify(r).includes('s3cret') && !JSON.stringify(r).toLowerCase().includes('proxy-authorization'),
      ),
    );
    assert.ok(logs.every((entry) => entry.route === `proxy ${p.address}`));
  });

  it('names an unreachable proxy and the setting it came from', async () => {
    const p = await proxy();
    await p.close();
    const error = await failure(
      client(trusted({ env: { HTTPS_PROXY: `http://user:s3cret@${p.address}` } }), {
        retry: { maxAttempts: 1 },
      }).getBalance(),
    );
    assert.equal(error.kind, 'network');
    assert.equal(error.code, 'proxy_unreachable');
    assert.equal(error.maybeSent, false);
    assert.match(
      error.message,
      new RegExp(`proxy ${p.address} \\(from HTTPS_PROXY\\) cannot be reached.*ECONNREFUSED`),
    );
    assert.ok(!error.message.includes('s3cret'));
  });

  it('refuses an unusable proxy address with a clear error, and sends nothing', async () => {
    const error = await failure(client({ proxy: 'socks5://user:s3cret@127.0.0.1:1080' }).getBalance());
    assert.equal(error.kind, 'badConfig');
    assert.equal(error.code, 'proxy_invalid');
    assert.match(error.message, /http\.proxy uses socks5:\/\/, which is not supported/);
    assert.ok(!error.message.includes('s3cret'));
    assert.equal(apiRequests().length, 0);
  });

  it('names the settings for an unknown authority (TLS inspection), then succeeds once the CA is supplied', async () => {
    const p = await proxy();
    const error = await failure(client({ proxy: p.url }).getBalance());
    assert.equal(error.kind, 'network');
    assert.equal(error.tls, true);
    assert.equal(error.code, 'untrusted_certificate');
    assert.match(error.message, /http\.systemCertificates/);
    assert.match(error.message, /NODE_EXTRA_CA_CERTS/);
    assert.match(error.message, /http\.proxyStrictSSL/);
    assert.equal(apiRequests().length, 0, 'no request, and so no key, went out');

    await client({ proxy: p.url, env: { NODE_EXTRA_CA_CERTS: ca.caFile } }).getBalance();
    assert.equal(apiRequests().length, 1);
  });

  it('keeps checking certificates with http.systemCertificates on (the system store is added, not substituted)', async () => {
    const p = await proxy();
    const error = await failure(client({ proxy: p.url, systemCertificates: true }).getBalance());
    assert.equal(error.code, 'untrusted_certificate');
    await client({ proxy: p.url, systemCertificates: true, env: { NODE_EXTRA_CA_CERTS: ca.caFile } }).getBalance();
    assert.equal(apiRequests().length, 1);
  });

  it('connects without checking when http.proxyStrictSSL is false, and warns', async () => {
    const p = await proxy();
    await client({ proxy: p.url, strictSSL: false }).getBalance();
    assert.equal(apiRequests().length, 1);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /http\.proxyStrictSSL is false/);
  });

  it('uses the system store when Node offers one: a root found only there is trusted', async () => {
    const p = await proxy();
    const origin = `https://api.test:${front.port}`;
    const trust = planTrust(
      { systemCertificates: true },
      {
        readFile: () => '',
        getCACertificates: (type) => (type === 'system' ? [ca.caCert] : [...tls.rootCertificates]),
      },
    );
    assert.deepEqual(trust.sources, ['Node', 'system']);
    const plan: ConnectionPlan = {
      route: decideRoute(origin, { proxy: p.url }),
      tls: trust.tls,
      trustSources: trust.sources,
      warnings: [],
    };
    const dispatcher = createDispatcher(plan, { connections: 1, connectMs: 5_000, headersMs: 5_000, bodyMs: 5_000 });
    try {
      const response = await request(dispatcher, {
        origin,
        path: '/api/v1/balance',
        method: 'GET',
        headers: { authorization: `Bearer ${KEY}` },
      });
      await response.body.dump();
      assert.equal(response.statusCode, 200);
      assert.equal(p.connects.length, 1);
    } finally {
      await dispatcher.destroy();
    }
  });

  it('takes the new route on the next request after the settings change; the request under way finishes on the old one', async () => {
    const first = await proxy();
    const second = await proxy();
    let network = trusted({ proxy: first.url });
    const routes: Array<string | undefined> = [];
    const store = new Store({
      createClient: (options) => client(network, { ...options, onRequest: (entry) => routes.push(entry.route) }),
      getKey: () => Promise.resolve(KEY),
      settings: () => ({ baseUrl, requestsPerMinute: 100, requestTimeoutMs: 5_000 }),
    });
    try {
      await store.keyChanged();
      mock.faults.add({ kind: 'delay', delayMs: 300, path: '/api/v1/balance', times: 1 });
      const slow = store.refresh(['balance'], 'user');
      await new Promise((resolve) => setTimeout(resolve, 100));
      network = trusted({ proxy: second.url });
      store.settingsChanged();
      await slow;
      assert.equal(store.balance.error, undefined, 'the request under way finished');
      assert.ok(store.balance.value);
      assert.equal(first.connects.length, 1);
      assert.equal(second.connects.length, 0);

      await store.refresh(['account'], 'user');
      assert.ok(store.account.value);
      assert.equal(first.connects.length, 1);
      assert.equal(second.connects.length, 1);
      assert.deepEqual(routes, [`proxy ${first.address}`, `proxy ${second.address}`]);
    } finally {
      store.dispose();
    }
  });
});
