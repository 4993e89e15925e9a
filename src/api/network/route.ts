import { isLoopbackHost } from '../baseUrl';
import { matchesNoProxy, splitNoProxy } from './noProxy';
import { type NetworkSettings } from './settings';

export interface ProxyEndpoint {
  // Never credentials in `uri` or `address`.
  readonly uri: string;
  readonly address: string;
  readonly authorization?: string;
}

export type Route =
  | {
      readonly kind: 'direct';
      readonly reason: 'loopback' | 'proxySupportOff' | 'noProxy' | 'noProxyConfigured';
      readonly setting?: string;
    }
  | { readonly kind: 'proxy'; readonly proxy: ProxyEndpoint; readonly setting: string }
  | { readonly kind: 'invalid'; readonly setting: string; readonly problem: string };

export const ENV_PROXIES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

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
    // Not quoting the text: it may hold a password.
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

function authorizationFor(url: URL, proxyAuthorization: string | undefined): string | undefined {
  if (proxyAuthorization?.trim()) return proxyAuthorization.trim();
  if (!url.username && !url.password) return undefined;
  const credentials = `${safeDecode(url.username)}:${safeDecode(url.password)}`;
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
}

export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
