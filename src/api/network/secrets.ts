import { ENV_PROXIES, safeDecode } from './route';
import { type NetworkSettings } from './settings';

export function proxySecrets(network: NetworkSettings): string[] {
  const secrets = new Set<string>();
  const authorization = network.proxyAuthorization;
  if (authorization) {
    secrets.add(authorization);
    const token = authorization.slice(authorization.indexOf(' ') + 1);
    if (token) secrets.add(token);
  }
  for (const address of [network.proxy, ...ENV_PROXIES.map((name) => network.env?.[name])]) {
    if (!address?.includes('@')) continue;
    try {
      const url = new URL(address.includes('://') ? address : `http://${address}`);
      for (const part of [url.password, safeDecode(url.password)]) if (part) secrets.add(part);
      if (url.username || url.password) {
        secrets.add(Buffer.from(`${safeDecode(url.username)}:${safeDecode(url.password)}`).toString('base64'));
      }
    } catch {
      // Not a URL: what looks like `user:password@` is still masked.
      const scheme = address.indexOf('://');
      const userinfo = address.slice(scheme >= 0 ? scheme + 3 : 0, address.lastIndexOf('@'));
      const password = userinfo.slice(userinfo.indexOf(':') + 1);
      if (password) secrets.add(password);
    }
  }
  return [...secrets];
}
