/** Addresses from one text field: IP literals (a host prefix length allowed), several in a list, or a host name. */

import { ipv4, ipv6, isPrivateV4, isPrivateV6 } from './ipLiterals';

/** Entries read from one list, whether a text list or an array. */
export const MAX_ENTRIES = 16;
/** Longer than any address list a field holds; longer text is not read. */
const MAX_TEXT = 1024;

export interface Candidate {
  readonly text: string;
  readonly v4: boolean;
  readonly private: boolean;
  readonly primary: boolean;
  readonly path: string;
}

/**
 * An IP from text, with a host prefix length (`/32`, `/128`) dropped; a network (`2001:db8::/64`) is not a host.
 * Pushed as a candidate; `priv` undefined means the address itself says whether it is private.
 */
function pushIp(raw: string, priv: boolean | undefined, primary: boolean, path: string, found: Candidate[]): boolean {
  const slash = raw.indexOf('/');
  const text = slash < 0 ? raw : raw.slice(0, slash);
  const head = ipv4(text);
  if (head >= 0) {
    if (slash >= 0 && raw.slice(slash + 1) !== '32') return false;
    found.push({ text, v4: true, private: priv ?? isPrivateV4(head), primary, path });
    return true;
  }
  if (ipv6(text)) {
    if (slash >= 0 && raw.slice(slash + 1) !== '128') return false;
    found.push({ text, v4: false, private: priv ?? isPrivateV6(text), primary, path });
    return true;
  }
  return false;
}

export function readText(
  value: string,
  priv: boolean | undefined,
  primary: boolean,
  path: string,
  found: Candidate[],
): void {
  if (value.length > MAX_TEXT) return;
  // Most fields hold one address. Text with a separator is never one address, so trying it whole first changes nothing.
  if (pushIp(value, priv, primary, path, found) || !/[\s,;]/.test(value)) return;
  for (const part of value.split(/[\s,;]+/, MAX_ENTRIES)) {
    if (part) pushIp(part, priv, primary, path, found);
  }
}

export function isHostName(text: string): boolean {
  return text.length <= 253 && text.includes('.') && /^[a-z\d.-]+$/i.test(text);
}
