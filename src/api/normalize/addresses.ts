/**
 * An order's addresses, wherever the provider nests them: `ip`, `main_ip`, `ipv4: [...]`, `public_net.ipv4.ip`,
 * `networks.v4[].ip_address` with `type: "public"`, `ip_addresses.ip_address[]` with `access`, allocations marked
 * `is_default`. The walk is breadth-first over address-like keys only, with bounded depth and nodes.
 */

import { type RawObject } from '../models';
import { type FieldTrace, isObject, joinPath, lookup, squash, textHit } from './read';

/** Keys whose values may hold addresses, squashed (no case, `_` or `-`). */
const ADDRESS_KEYS = new Set(['ip', 'ipv4', 'ipv6', 'ipaddress', 'ipaddresses', 'mainip', 'primaryip', 'publicip',
  'publicipv4', 'publicipv6', 'publicips', 'v6mainip', 'ips', 'addresses', 'address', 'dedicatedip', 'assignedips',
  'networks', 'publicnet', 'privatenet', 'privateip', 'privateips', 'internalip', 'v4', 'v6', 'allocations',
  'relationships', 'data', 'attributes', 'ipv4address', 'ipv6address', 'publicaddress', 'privateaddress',
  'primaryipv4', 'primaryipv6', 'accessipv4', 'accessipv6', 'floatingip', 'interfaces', 'nics', 'network']);
/** Host names a customer connects to, when no IP is given. A machine's own `hostname` often resolves nowhere. */
const NAME_FIELDS = ['fqdn', 'domain'];
const SCOPE_FIELDS = ['type', 'access', 'scope', 'visibility'];
const PRIMARY_FLAGS = ['is_default', 'is_primary', 'primary', 'default', 'main'];

const MAX_DEPTH = 8;
const MAX_NODES = 64;
const MAX_ENTRIES = 16;
const MAX_KEYS = 64;
export const MAX_ADDRESSES = 16;
/** Longer than any address list a field holds; longer text is not read. */
const MAX_TEXT = 1024;

interface Candidate { readonly text: string; readonly v4: boolean; readonly private: boolean; readonly primary: boolean; readonly path: string }
interface Node { readonly value: unknown; readonly depth: number; readonly private?: boolean; readonly primary: boolean; readonly path: string }

function ipv4(text: string): boolean {
  if (!/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(text)) return false;
  return text.split('.').every((part) => Number(part) <= 255);
}

function ipv6(text: string): boolean {
  return text.length <= 45 && text.includes(':') && /^[\da-f:.]+$/i.test(text);
}

function isPrivate(text: string, v4: boolean): boolean {
  if (!v4) return /^(?:f[cd]|fe80|::1$)/i.test(text);
  const [a = 0, b = 0] = text.split('.').map(Number);
  return a === 10 || a === 127 || (a === 169 && b === 254) || (a === 192 && b === 168) ||
    (a === 172 && b >= 16 && b <= 31) || (a === 100 && b >= 64 && b <= 127);
}

/** An IP from text, with a host prefix length (`/32`, `/128`) dropped; a network (`2001:db8::/64`) is not a host. */
function readIp(raw: string): { text: string; v4: boolean } | undefined {
  const slash = raw.indexOf('/');
  const text = slash < 0 ? raw : raw.slice(0, slash);
  const prefix = slash < 0 ? undefined : raw.slice(slash + 1);
  if (ipv4(text)) return prefix === undefined || prefix === '32' ? { text, v4: true } : undefined;
  if (ipv6(text)) return prefix === undefined || prefix === '128' ? { text, v4: false } : undefined;
  return undefined;
}

function scopeOf(obj: RawObject, inherited: boolean | undefined): boolean | undefined {
  const scope = textHit(obj, SCOPE_FIELDS)?.text.toLowerCase();
  if (scope === 'public' || scope === 'external') return false;
  if (scope === 'private' || scope === 'internal') return true;
  const flag = lookup(obj, ['public', 'is_public'])?.value;
  return typeof flag === 'boolean' ? !flag : inherited;
}

function scopeOfKey(key: string, inherited: boolean | undefined): boolean | undefined {
  if (key.includes('private') || key.includes('internal')) return true;
  return key.includes('public') ? false : inherited;
}

function collect(root: RawObject, base: string, tracing: boolean): Candidate[] {
  const found: Candidate[] = [];
  const queue: Node[] = [{ value: root, depth: 0, primary: false, path: base }];
  for (let i = 0; i < queue.length && i < MAX_NODES && found.length < MAX_ADDRESSES * 2; i++) {
    const node = queue[i] as Node;
    const { value } = node;
    if (typeof value === 'string') {
      if (value.length > MAX_TEXT) continue;
      for (const part of value.split(/[\s,;]+/, MAX_ENTRIES)) {
        const ip = part ? readIp(part) : undefined;
        if (ip) found.push({ ...ip, private: node.private ?? isPrivate(ip.text, ip.v4), primary: node.primary, path: node.path });
      }
    } else if (node.depth < MAX_DEPTH && Array.isArray(value)) {
      const path = tracing ? `${node.path}[]` : '';
      for (let j = 0; j < value.length && j < MAX_ENTRIES; j++) queue.push({ ...node, value: value[j], depth: node.depth + 1, path });
    } else if (node.depth < MAX_DEPTH && isObject(value)) {
      const scope = scopeOf(value, node.private);
      const primary = node.primary || PRIMARY_FLAGS.some((name) => lookup(value, [name])?.value === true);
      let scanned = 0;
      for (const key in value) {
        if (++scanned > MAX_KEYS) break;
        const squashed = squash(key);
        if (!ADDRESS_KEYS.has(squashed)) continue;
        const path = tracing ? joinPath(node.path, key) : '';
        queue.push({ value: value[key], depth: node.depth + 1, private: scopeOfKey(squashed, scope), primary, path });
      }
    }
  }
  return found;
}

function rank(candidate: Candidate): number {
  return (candidate.private ? 4 : 0) + (candidate.v4 ? 0 : 2) + (candidate.primary ? 0 : 1);
}

/** The main public address (IPv4 preferred) and every address, IPv4 first, without repeats, at most sixteen. */
export function readAddresses(obj: RawObject, base: string, trace?: FieldTrace): { address?: string; addresses?: string[] } {
  const found = collect(obj, base, trace !== undefined);
  const best = found.reduce<Candidate | undefined>((chosen, next) => (!chosen || rank(next) < rank(chosen) ? next : chosen), undefined);
  if (!best) {
    const name = textHit(obj, NAME_FIELDS);
    if (!name || !isHostName(name.text)) return {};
    trace?.use('address', joinPath(base, name.key));
    return { address: name.text, addresses: [name.text] };
  }
  trace?.use('address', best.path);
  const all = new Map<string, string>();
  for (const c of [...found.filter((c) => c.v4), ...found.filter((c) => !c.v4)]) {
    if (!all.has(c.text.toLowerCase())) all.set(c.text.toLowerCase(), c.text);
  }
  return { address: best.text, addresses: [...all.values()].slice(0, MAX_ADDRESSES) };
}

function isHostName(text: string): boolean {
  return text.length <= 253 && text.includes('.') && /^[a-z\d.-]+$/i.test(text);
}
