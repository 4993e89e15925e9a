import { type NetworkSettings } from './settings';

/** The proxy variables a proxy address may come from (see `readNetworkSettings`). */
const PROXY_ENV = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

/** What the log must never show: proxy passwords and the Proxy-Authorization value, masked like the key. */
export function proxySecrets(network: NetworkSettings): string[] {
  const secrets = new Set<string>();
  const authorization = network.proxyAuthorization;
  if (authorization) {
    secrets.add(authorization);
    const token = authorization.slice(authorization.indexOf(' ') + 1);
    if (token) secrets.add(token);
  }
  for (const address of [network.proxy, ...PROXY_ENV.map((name) => network.env?.[name])]) {
    if (!address?.includes('@')) continue;
    try {
      const url = new URL(address.includes('://') ? address : `http://${address}`);
      for (const part of [url.password, safeDecode(url.password)]) if (part) secrets.add(part);
      if (url.username || url.password) {
        secrets.add(Buffer.from(`${safeDecode(url.username)}:${safeDecode(url.password)}`).toString('base64'));
      }
    } catch {
      // Not a URL (the API layer reports it without repeating it); what looks like `user:password@` is still masked.
      const scheme = address.indexOf('://');
      const userinfo = address.slice(scheme >= 0 ? scheme + 3 : 0, address.lastIndexOf('@'));
      const password = userinfo.slice(userinfo.indexOf(':') + 1);
      if (password) secrets.add(password);
    }
  }
  return [...secrets];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
