export interface RemoteWindow {
  readonly remoteName: string | undefined;
  readonly authorities: readonly string[];
}

export interface OrderNames {
  readonly label: string;
  readonly address?: string;
  readonly addresses?: readonly string[];
}

const PREFIX = 'ssh-remote+';
const MAX_AUTHORITY = 2_048;

// Remote-SSH writes the host as given (`root@203.0.113.5`) or as hex-encoded JSON (`{"hostName":"…"}`).
export function sshRemoteHost(authority: string): string | undefined {
  if (authority.length > MAX_AUTHORITY || !authority.toLowerCase().startsWith(PREFIX)) return undefined;
  let host = decode(authority.slice(PREFIX.length));
  if (/^[\da-f]+$/i.test(host) && host.length % 2 === 0) host = hostNameOfJson(host) ?? host;
  const at = host.lastIndexOf('@');
  if (at >= 0) host = host.slice(at + 1);
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    host = end > 0 ? host.slice(1, end) : '';
  } else if (host.indexOf(':') >= 0 && host.indexOf(':') === host.lastIndexOf(':')) {
    // `host:port`; an IPv6 address without brackets has several colons and is kept whole.
    host = host.slice(0, host.indexOf(':'));
  }
  host = host.trim().toLowerCase();
  return host || undefined;
}

export function connectedHosts(window: RemoteWindow): string[] {
  if (window.remoteName !== 'ssh-remote') return [];
  const hosts = new Set<string>();
  for (const authority of window.authorities) {
    const host = sshRemoteHost(authority);
    if (host) hosts.add(host);
  }
  return [...hosts];
}

export function isWindowOn(window: RemoteWindow, order: OrderNames): boolean {
  const hosts = connectedHosts(window);
  if (!hosts.length) return false;
  const names = [order.label, order.address, ...(order.addresses ?? [])]
    .filter((name): name is string => typeof name === 'string' && name.length > 0)
    .map((name) => name.toLowerCase());
  return hosts.some((host) => names.includes(host));
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function hostNameOfJson(hex: string): string | undefined {
  const text = Buffer.from(hex, 'hex').toString('utf8');
  if (!text.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    const hostName =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>).hostName : undefined;
    return typeof hostName === 'string' ? hostName : undefined;
  } catch {
    return undefined;
  }
}
