// As curl reads `no_proxy`: `example.com`, `.example.com` and `*.example.com` all match the domain and its
// subdomains. String operations, not patterns: the entries come from the environment.
export function matchesNoProxy(hostname: string, port: number, entries: readonly string[]): boolean {
  const host = stripBrackets(hostname.toLowerCase());
  return entries.some((raw) => {
    const entry = parseEntry(raw);
    if (!entry) return false;
    if (entry.host === '*') return true;
    if (entry.port !== undefined && entry.port !== port) return false;
    return host === entry.host || host.endsWith(`.${entry.host}`);
  });
}

export function splitNoProxy(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .flatMap((part) => part.trim().split(' '))
    .filter((part) => part !== '');
}

function parseEntry(raw: string): { host: string; port?: number } | undefined {
  let text = raw.trim().toLowerCase();
  if (text === '') return undefined;
  if (text === '*') return { host: '*' };
  if (text.startsWith('*.')) text = text.slice(2);
  else if (text.startsWith('.')) text = text.slice(1);
  let port: number | undefined;
  const colon = text.lastIndexOf(':');
  const bracketEnd = text.lastIndexOf(']');
  // In IPv6 only a colon right after `]` separates a port.
  const bracketed = text.startsWith('[');
  if (bracketed ? colon === bracketEnd + 1 && bracketEnd > 0 : colon >= 0 && text.indexOf(':') === colon) {
    const digits = text.slice(colon + 1);
    if (digits === '' || [...digits].some((c) => c < '0' || c > '9')) return undefined;
    port = Number(digits);
    text = text.slice(0, colon);
  }
  const host = stripBrackets(text);
  return host === '' ? undefined : { host, port };
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
