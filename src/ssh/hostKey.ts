import { checkHost } from '../util/hostCheck';

// IPv4 as written: checkHost refuses the notations that would hide another address.
export function hostKey(text: unknown): string | undefined {
  const check = checkHost(text);
  if (!check.ok) return undefined;
  switch (check.kind) {
    case 'ipv4':
      return check.host;
    case 'name':
      return check.host.toLowerCase();
    case 'ipv6':
      return canonicalIPv6(check.host);
  }
}

function canonicalIPv6(address: string): string | undefined {
  try {
    // The URL parser writes IPv6 in the RFC 5952 form.
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}
