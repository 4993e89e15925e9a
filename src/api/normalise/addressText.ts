/**
 * Addresses from one text field: IP literals (a host prefix length allowed), several in a list, or a host name. Every
 * address passes the one host rule (util/hostCheck.ts), the same that guards SSH; in a field meant for an address, a
 * value the rule refuses is kept with its reason, so it is told rather than silently dropped.
 */

import { type RefusedAddress } from '../models';
import { checkHost, isPlainIPv6, plainIPv4Head } from '../../util/hostCheck';
import { isPrivateV4, isPrivateV6 } from './ipLiterals';
import { plain, serverText } from '../../util/serverText';

/** Entries read from one list, whether a text list or an array. */
export const MAX_ENTRIES = 16;
/** Longer than any address list a field holds; longer text is not read. */
const MAX_TEXT = 1024;
/** Refused values kept per order, and the length each is kept to: enough to tell, never a flood. */
export const MAX_REFUSED = 8;
const MAX_REFUSED_TEXT = 120;

export interface Candidate {
  readonly text: string;
  readonly v4: boolean;
  readonly private: boolean;
  readonly primary: boolean;
  readonly path: string;
}

/**
 * An IP from text, with a host prefix length (`/32`, `/128`) dropped, pushed as a candidate: `priv` undefined means
 * the address itself says whether it is private. A network (`2001:db8::/64`) is no host, and no refused host either.
 */
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
  // The unspecified addresses are refused by the rule, with its reason (IPv4 has one spelling, checked here at once).
  if (v6 ? !checkHost(text).ok : text === '0.0.0.0') return 'none';
  found.push({ text, v4: !v6, private: priv ?? (v6 ? isPrivateV6(text) : isPrivateV4(head)), primary, path });
  return 'host';
}

/**
 * The addresses in one text value. `refused` is given for fields meant for an address (`ip`, `main_ip`, `ipv4`…):
 * there a host name (with a dot) is an address too, and a value that yields none is refused with the rule's reason
 * (as is each part of a list the rule refuses). Elsewhere (`data`, `network`…) only IP literals are read.
 */
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
  // Most fields hold one address. Text with a separator is never one address, so trying it whole first changes nothing.
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

/** Notes a refused value, cut to a length to show, once, and no more than MAX_REFUSED of them. */
export function refuse(refused: RefusedAddress[], value: string, problem: RefusedAddress['problem']): void {
  const shown = value.length > MAX_REFUSED_TEXT ? `${value.slice(0, MAX_REFUSED_TEXT - 1)}…` : value;
  if (refused.length < MAX_REFUSED && !refused.some((r) => plain(r.value) === shown)) {
    refused.push({ value: serverText(shown), problem });
  }
}
