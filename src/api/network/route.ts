import { isLoopbackHost } from '../baseUrl';
import { matchesNoProxy, splitNoProxy } from './noProxy';
import { type NetworkSettings } from './settings';

/** A proxy to tunnel through. `address` (host:port) is what logs and messages show; it never has credentials. */
export interface ProxyEndpoint {
  /** `http://host:port` or `https://host:port`, without credentials. */
  readonly uri: string;
  readonly address: string;
  /** The `Proxy-Authorization` value, sent only on CONNECT, to the proxy. */
  readonly authorization?: string;
}

/** How one origin is reached, and which setting or variable decided it (for the log and for error messages). */
export type Route =
  | {
      readonly kind: 'direct';
      readonly reason: 'loopback' | 'proxySupportOff' | 'noProxy' | 'noProxyConfigured';
      readonly setting?: string;
    }
  | { readonly kind: 'proxy'; readonly proxy: ProxyEndpoint; readonly setting: string }
  | { readonly kind: 'invalid'; readonly setting: string; readonly problem: string };

const ENV_PROXIES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

/**
 * The one place that decides how to reach `origin`. Loopback is always direct; then `http.proxySupport: off`;
 * then `http.noProxy` (or, when that is empty, `NO_PROXY`); then `http.proxy`; then the proxy variables. A proxy is
 * only ever used through CONNECT, so what travels through it is TLS to the API host.
 */
export function decideRoute(origin: string, settings: NetworkSettings = {}): Route {
  const target = new URL(origin);
  if (isLoopbackHost(target.hostname)) return { kind: 'direct', reason: 'loopback' };
  if (settings.proxySupport === 'off') {
    return { kind: 'direct', reason: 'proxySupportOff', setting: 'http.proxySupport' };
  }
  const env = settings.env ?? {};
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  const fromSetting = (settings.noProxy ?? []).map((entry) => entry.trim()).filter((entry) => entry !== '');
  const fromEnv = (['no_proxy', 'NO_PROXY'] as const).find((name) => env[name]?.trim());
  const [noProxy, noProxySetting] =
    fromSetting.length > 0
      ? [fromSetting, 'http.noProxy']
      : fromEnv
        ? [splitNoProxy(env[fromEnv]), fromEnv]
        : [[], undefined];
  if (matchesNoProxy(target.hostname, port, noProxy)) {
    return { kind: 'direct', reason: 'noProxy', setting: noProxySetting };
  }

  const configured = settings.proxy?.trim()
    ? { text: settings.proxy.trim(), setting: 'http.proxy' }
    : ENV_PROXIES.map((name) => ({ text: env[name]?.trim() ?? '', setting: name })).find(({ text }) => text !== '');
  if (!configured) return { kind: 'direct', reason: 'noProxyConfigured' };
  return parseProxy(configured.text, configured.setting, settings.proxyAuthorization);
}

/** `direct` or `proxy host:port`: what the log says about a request. Never credentials. */
export function describeRoute(route: Route): string {
  switch (route.kind) {
    case 'direct':
      return 'direct';
    case 'proxy':
      return `proxy ${route.proxy.address}`;
    case 'invalid':
      return `no route (${route.setting} is unusable)`;
  }
}

function parseProxy(text: string, setting: string, proxyAuthorization: string | undefined): Route {
  // Proxy variables are often written without a scheme (`proxy:3128`); curl reads those as http://.
  const withScheme = text.includes('://') ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    // Not the text itself: it may hold a password.
    return { kind: 'invalid', setting, problem: `The proxy address in ${setting} is not a valid URL.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      kind: 'invalid',
      setting,
      problem: `The proxy address in ${setting} uses ${url.protocol}//, which is not supported: use an http:// or https:// proxy.`,
    };
  }
  if (!url.hostname) return { kind: 'invalid', setting, problem: `The proxy address in ${setting} has no host.` };
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const address = `${url.hostname}:${port}`;
  return {
    kind: 'proxy',
    setting,
    proxy: { uri: `${url.protocol}//${address}`, address, authorization: authorizationFor(url, proxyAuthorization) },
  };
}

/** `http.proxyAuthorization`, the explicit setting, wins over credentials in the proxy's address. */
function authorizationFor(url: URL, proxyAuthorization: string | undefined): string | undefined {
  if (proxyAuthorization?.trim()) return proxyAuthorization.trim();
  if (!url.username && !url.password) return undefined;
  const credentials = `${safeDecode(url.username)}:${safeDecode(url.password)}`;
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
