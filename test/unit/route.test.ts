import assert from 'node:assert/strict';
import { matchesNoProxy, splitNoProxy } from '../../src/api/network/noProxy';
import { decideRoute, describeRoute, type Route } from '../../src/api/network/route';
import { type NetworkSettings, normaliseNetworkSettings } from '../../src/api/network/settings';
import { planTrust, type TrustDeps } from '../../src/api/network/trust';

const API = 'https://api.example.com';

function proxyOf(route: Route): { address: string; setting: string; uri: string; authorization?: string } {
  assert.equal(route.kind, 'proxy', JSON.stringify(route));
  return { ...route.proxy, setting: route.setting };
}

describe('network route decision (unit)', () => {
  it('goes direct for loopback, whatever is configured', () => {
    for (const origin of ['http://127.0.0.1:8080', 'http://localhost:3000', 'https://[::1]:8443']) {
      assert.deepEqual(decideRoute(origin, { proxy: 'http://proxy:3128', env: { HTTPS_PROXY: 'http://p:1' } }), {
        kind: 'direct',
        reason: 'loopback',
      });
    }
  });

  it('goes direct with nothing configured', () => {
    assert.deepEqual(decideRoute(API, {}), { kind: 'direct', reason: 'noProxyConfigured' });
    assert.deepEqual(decideRoute(API), { kind: 'direct', reason: 'noProxyConfigured' });
  });

  it('takes http.proxy first, then https_proxy, HTTPS_PROXY, http_proxy, HTTP_PROXY', () => {
    const env = {
      https_proxy: 'http://a:1',
      HTTPS_PROXY: 'http://b:2',
      http_proxy: 'http://c:3',
      HTTP_PROXY: 'http://d:4',
    };
    assert.equal(proxyOf(decideRoute(API, { proxy: 'http://s:9', env })).setting, 'http.proxy');
    assert.equal(proxyOf(decideRoute(API, { env })).setting, 'https_proxy');
    assert.equal(proxyOf(decideRoute(API, { env: { ...env, https_proxy: '' } })).setting, 'HTTPS_PROXY');
    assert.equal(proxyOf(decideRoute(API, { env: { HTTP_PROXY: 'http://d:4', http_proxy: ' ' } })).address, 'd:4');
  });

  it('goes direct with http.proxySupport off', () => {
    assert.deepEqual(decideRoute(API, { proxy: 'http://s:9', proxySupport: 'off' }), {
      kind: 'direct',
      reason: 'proxySupportOff',
      setting: 'http.proxySupport',
    });
    assert.equal(decideRoute(API, { proxy: 'http://s:9', proxySupport: 'fallback' }).kind, 'proxy');
  });

  it('uses http.noProxy when set, NO_PROXY (or no_proxy) otherwise', () => {
    const env = { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com' };
    assert.deepEqual(decideRoute(API, { env }), { kind: 'direct', reason: 'noProxy', setting: 'NO_PROXY' });
    assert.equal(decideRoute(API, { env, noProxy: ['other.org'] }).kind, 'proxy');
    assert.deepEqual(decideRoute(API, { env, noProxy: ['api.example.com'] }), {
      kind: 'direct',
      reason: 'noProxy',
      setting: 'http.noProxy',
    });
    assert.deepEqual(decideRoute(API, { env: { HTTPS_PROXY: 'http://p:1', no_proxy: '*' } }), {
      kind: 'direct',
      reason: 'noProxy',
      setting: 'no_proxy',
    });
    assert.equal(decideRoute(API, { env, noProxy: ['  '] }).kind, 'direct', 'a blank list is not "set"');
  });

  it('reads a proxy address without a scheme as http://, and fills in the port', () => {
    assert.deepEqual(proxyOf(decideRoute(API, { env: { HTTPS_PROXY: 'proxy.corp:3128' } })), {
      uri: 'http://proxy.corp:3128',
      address: 'proxy.corp:3128',
      authorization: undefined,
      setting: 'HTTPS_PROXY',
    });
    assert.equal(proxyOf(decideRoute(API, { proxy: 'http://proxy.corp' })).address, 'proxy.corp:80');
    assert.equal(proxyOf(decideRoute(API, { proxy: 'https://proxy.corp/' })).uri, 'https://proxy.corp:443');
  });

  it('keeps credentials out of the address, and sends them as Basic, or http.proxyAuthorization instead', () => {
    const fromUrl = proxyOf(decideRoute(API, { proxy: 'http://ada%40corp:p%3Ass@proxy:3128' }));
    assert.equal(fromUrl.uri, 'http://proxy:3128');
    assert.equal(fromUrl.authorization, `Basic ${Buffer.from('ada@corp:p:ss').toString('base64')}`);
    const route = decideRoute(API, { proxy: 'http://ada:pass@proxy:3128', proxyAuthorization: 'Negotiate abc' });
    assert.equal(proxyOf(route).authorization, 'Negotiate abc');
    assert.equal(describeRoute(route), 'proxy proxy:3128');
    assert.ok(!JSON.stringify(describeRoute(route)).includes('pass'));
  });

  it('calls an unusable proxy address invalid without repeating it', () => {
    for (const proxy of ['socks5://u:secret@h:1', 'http://u:secret@', 'http://[u:secret']) {
      const route = decideRoute(API, { proxy });
      assert.equal(route.kind, 'invalid', proxy);
      assert.equal(route.setting, 'http.proxy');
      assert.ok(!route.problem.includes('secret'));
    }
  });
});

describe('no_proxy matching (unit)', () => {
  const cases: Array<[string, number, string[], boolean]> = [
    ['api.example.com', 443, ['example.com'], true],
    ['api.example.com', 443, ['.example.com'], true],
    ['api.example.com', 443, ['*.example.com'], true],
    ['example.com', 443, ['.example.com'], true],
    ['badexample.com', 443, ['example.com'], false],
    ['api.example.com', 443, ['example.com:443'], true],
    ['api.example.com', 8443, ['example.com:443'], false],
    ['API.Example.com', 443, ['example.COM'], true],
    ['10.1.2.3', 443, ['10.1.2.3'], true],
    ['[2001:db8::1]', 443, ['2001:db8::1'], true],
    ['[2001:db8::1]', 443, ['[2001:db8::1]:443'], true],
    ['anything', 1, ['*'], true],
    ['anything', 1, [], false],
    ['anything', 1, ['', ' ', ':'], false],
  ];
  for (const [host, port, entries, expected] of cases) {
    it(`${host}:${port} against ${JSON.stringify(entries)} → ${expected}`, () => {
      assert.equal(matchesNoProxy(host, port, entries), expected);
    });
  }

  it('splits NO_PROXY on commas and spaces', () => {
    assert.deepEqual(splitNoProxy(' a.com, .b.org  c.net,,'), ['a.com', '.b.org', 'c.net']);
    assert.deepEqual(splitNoProxy(undefined), []);
  });
});

describe('certificates to trust (unit)', () => {
  const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
  const noFiles: TrustDeps = {
    readFile: () => {
      throw Object.assign(new Error('nope'), { code: 'ENOENT' });
    },
  };

  it("uses Node's defaults, unchanged, when there is nothing to add", () => {
    const plan = planTrust({ systemCertificates: true }, noFiles);
    assert.deepEqual(plan.tls, { rejectUnauthorized: true });
    assert.deepEqual(plan.sources, ['Node']);
  });

  it('turns checking off only for http.proxyStrictSSL false, with a warning', () => {
    const plan = planTrust({ strictSSL: false }, noFiles);
    assert.equal(plan.tls.rejectUnauthorized, false);
    assert.match(plan.warnings[0] ?? '', /http\.proxyStrictSSL is false/);
  });

  it('warns about a NODE_EXTRA_CA_CERTS file it cannot read or that holds no certificate', () => {
    assert.match(
      planTrust({ env: { NODE_EXTRA_CA_CERTS: '/missing.pem' } }, noFiles).warnings[0] ?? '',
      /could not be read \(ENOENT\)/,
    );
    assert.match(
      planTrust({ env: { NODE_EXTRA_CA_CERTS: 'x' } }, { readFile: () => 'not a cert' }).warnings[0] ?? '',
      /no PEM certificate/,
    );
  });

  it('asks for the system store only with http.systemCertificates on, and only where Node offers it', () => {
    const asked: string[] = [];
    const deps: TrustDeps = {
      ...noFiles,
      getCACertificates: (type) => {
        asked.push(type);
        return type === 'system' ? [] : [PEM];
      },
    };
    planTrust({ systemCertificates: false }, deps);
    assert.deepEqual(asked, []);
    planTrust({ systemCertificates: true }, deps);
    assert.deepEqual(asked, ['system']);
    assert.deepEqual(
      planTrust({ systemCertificates: true }, noFiles).warnings,
      [],
      'an older Node simply has no system store',
    );
  });

  it('reports a system store that cannot be read, and goes on without it', () => {
    const deps: TrustDeps = {
      ...noFiles,
      getCACertificates: () => {
        throw new Error('no keychain');
      },
    };
    const plan = planTrust({ systemCertificates: true }, deps);
    assert.deepEqual(plan.tls, { rejectUnauthorized: true });
    assert.match(plan.warnings[0] ?? '', /could not be read \(no keychain\)/);
  });
});

describe('network settings as read from JSON (unit)', () => {
  it('treats values of the wrong type as unset, and only a literal false as "do not check"', () => {
    const raw = {
      proxy: 42,
      noProxy: 'a.com',
      proxySupport: 'sometimes',
      proxyAuthorization: null,
      strictSSL: 'no',
      systemCertificates: 1,
      env: null,
    };
    assert.deepEqual(normaliseNetworkSettings(raw as unknown as NetworkSettings), {
      proxy: undefined,
      noProxy: [],
      proxySupport: 'override',
      proxyAuthorization: undefined,
      strictSSL: true,
      systemCertificates: false,
      env: {},
    });
    const clean = normaliseNetworkSettings({
      proxy: ' http://p:1 ',
      noProxy: ['a.com', 7 as unknown as string],
      proxySupport: 'off',
      strictSSL: false,
      systemCertificates: true,
    });
    assert.equal(clean.proxy, 'http://p:1');
    assert.deepEqual(clean.noProxy, ['a.com']);
    assert.equal(clean.proxySupport, 'off');
    assert.equal(clean.strictSSL, false);
    assert.equal(clean.systemCertificates, true);
  });
});
