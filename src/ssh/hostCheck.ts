/**
 * What may reach `ssh` from server text: a plain IPv4 or IPv6 address or a DNS name, a user name, a port. Anything
 * else is refused before it gets near a terminal: a leading `-` would be read as an option (`-oProxyCommand=…`), and
 * spaces, `;`, `%`, brackets or look-alike letters are not part of any address. Free of `vscode`, for unit tests.
 */
import { isIPv6 } from 'node:net';

export type HostKind = 'ipv4' | 'ipv6' | 'name';
/** Why a text is not a host: the command turns this into a sentence. */
export type HostProblem = 'empty' | 'option' | 'notAscii' | 'notHost';

export type HostCheck =
  | { readonly ok: true; readonly host: string; readonly kind: HostKind }
  | { readonly ok: false; readonly problem: HostProblem };

const MAX_NAME = 253;
const MAX_LABEL = 63;

export function checkHost(text: unknown): HostCheck {
  if (typeof text !== 'string' || text.length === 0) return { ok: false, problem: 'empty' };
  if (text.startsWith('-')) return { ok: false, problem: 'option' };
  // Cut before any pattern runs: no address is longer than a DNS name.
  if (text.length > MAX_NAME) return { ok: false, problem: 'notHost' };
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7e) return { ok: false, problem: 'notAscii' };
  }
  if (isPlainIPv4(text)) return { ok: true, host: text, kind: 'ipv4' };
  if (text.includes(':')) {
    // No zone (`%eth0`), no brackets, no port: the characters of an address and nothing else.
    return /^[\d.:a-f]+$/i.test(text) && isIPv6(text)
      ? { ok: true, host: text, kind: 'ipv6' }
      : { ok: false, problem: 'notHost' };
  }
  return isDnsName(text) ? { ok: true, host: text, kind: 'name' } : { ok: false, problem: 'notHost' };
}

/** Four decimal parts, 0–255, no leading zeros: the resolver reads `010.0.0.1` as octal, another host. */
export function isPlainIPv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^(?:0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255);
}

/**
 * Letters, digits and inner hyphens in labels of 1–63 characters. The last label is not all digits: `1.2.3` or
 * `3232235777` would be read as an IPv4 address in a legacy notation, i.e. another host than the text seems to name.
 */
export function isDnsName(text: string): boolean {
  if (text.length > MAX_NAME) return false;
  const labels = text.split('.');
  const last = labels[labels.length - 1] ?? '';
  if (/^\d+$/.test(last)) return false;
  return labels.every(
    (label) =>
      label.length > 0 &&
      label.length <= MAX_LABEL &&
      /^[\da-z-]+$/i.test(label) &&
      !label.startsWith('-') &&
      !label.endsWith('-'),
  );
}

/** A POSIX-style login name: never an option, never `user@host` or shell syntax. */
export function isSafeUser(text: unknown): text is string {
  return typeof text === 'string' && text.length > 0 && text.length <= 32 && /^[a-z_][\w.-]*$/i.test(text);
}

export function isSafePort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65_535;
}
