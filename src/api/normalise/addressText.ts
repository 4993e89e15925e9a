/** Addresses in one text field; each passes the host rule that guards SSH (util/hostCheck.ts). */

import { type RefusedAddress } from '../models';
import { checkHost, isPlainIPv6, plainIPv4Head } from '../../util/hostCheck';
import { plain, serverText } from '../../util/serverText';

export const MAX_ENTRIES = 16;
const MAX_TEXT = 1024;
/** Enough to tell, never a flood. */
const MAX_REFUSED = 8;
const MAX_REFUSED_TEXT = 120;

export interface Candidate {
  readonly text: string;
  readonly v4: boolean;
  readonly private: boolean;
  readonly primary: boolean;
  readonly path: string;
}

function isPrivateV6(text: string): boolean {
  return /^(?:f[cd]|fe80|::1$)/i.test(text);
}

/** `head` is an IPv4's first two parts, `a * 256 + b`. */
function isPrivateV4(head: number): boolean {
  const a = head >> 8;
  const b = head & 255;
  return (
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 192 && b === 168) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

/** `/32` and `/128` are dropped; a network (`2001:db8::/64`) is no host, and no refused one either. */
function pushIp(
  raw: string,
  priv: boolean | undefined,
  primary: boolean,
  path: string,
  found: Candidate[],
): 'host' | 'network' | 'none' {
  const slash = raw.indexOf('/');
  const text = slash < 0 ? raw : raw.slice(0, slash);
  const head = plainIPv4Head(text);
  const v6 = head < 0 && text.includes(':') && isPlainIPv6(text);
  if (head < 0 && !v6) return 'none';
  if (slash >= 0 && raw.slice(slash + 1) !== (v6 ? '128' : '32')) return 'network';
  // The unspecified addresses (IPv4's one spelling checked here at once).
  if (v6 ? !checkHost(text).ok : text === '0.0.0.0') return 'none';
  found.push({ text, v4: !v6, private: priv ?? (v6 ? isPrivateV6(text) : isPrivateV4(head)), primary, path });
  return 'host';
}

/** `refused` for fields meant for an address: there a host name is one too; elsewhere only IP literals are read. */
export function readText(
  value: string,
  priv: boolean | undefined,
  primary: boolean,
  path: string,
  found: Candidate[],
  refused?: RefusedAddress[],
): void {
  if (value.length > MAX_TEXT) {
    const check = refused && checkHost(value);
    if (check && !check.ok) refuse(refused, value, check.problem);
    return;
  }
  const single = pushIp(value, priv, primary, path, found);
  if (single !== 'none') return;
  if (!/[\s,;]/.test(value)) {
    if (!refused) return;
    const check = checkHost(value);
    // A word without a dot (`pending`, `none`) is no address to offer, nor one to refuse.
    if (!check.ok) refuse(refused, value, check.problem);
    else if (value.includes('.')) found.push({ text: check.host, v4: false, private: priv ?? false, primary, path });
    return;
  }
  let read = false;
  const bad: RefusedAddress[] = [];
  for (const part of value.split(/[\s,;]+/, MAX_ENTRIES)) {
    if (!part) continue;
    const kind = pushIp(part, priv, primary, path, found);
    read ||= kind !== 'none';
    if (kind !== 'none' || !refused) continue;
    const check = checkHost(part);
    if (!check.ok) bad.push({ value: serverText(part), problem: check.problem });
  }
  if (!refused || !value.trim()) return;
  if (!read) {
    const check = checkHost(value);
    refuse(refused, value, check.ok ? 'notHost' : check.problem);
  } else {
    for (const { value: part, problem } of bad) refuse(refused, plain(part), problem);
  }
}

export function refuse(refused: RefusedAddress[], value: string, problem: RefusedAddress['problem']): void {
  // An empty field refused nothing.
  if (problem === 'empty') return;
  const shown = value.length > MAX_REFUSED_TEXT ? `${value.slice(0, MAX_REFUSED_TEXT - 1)}…` : value;
  if (refused.length < MAX_REFUSED && !refused.some((r) => plain(r.value) === shown)) {
    refused.push({ value: serverText(shown), problem });
  }
}
