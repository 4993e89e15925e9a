/**
 * An order's addresses, wherever the provider nests them: `ip`, `main_ip`, `ipv4: [...]`, `public_net.ipv4.ip`,
 * `networks.v4[].ip_address` with `type: "public"`, `ip_addresses.ip_address[]` with `access`, allocations marked
 * `is_default`. The walk is breadth-first over address-like keys only, with bounded depth and nodes.
 */

import { type RawObject } from '../models';
import { type FieldTrace, isObject, joinPath, squash, textHit } from './read';

/** Keys whose values may hold addresses, squashed (no case, `_` or `-`). */
const ADDRESS_KEYS = new Set(['ip', 'ipv4', 'ipv6', 'ipaddress', 'ipaddresses', 'mainip', 'primaryip', 'publicip',
  'publicipv4', 'publicipv6', 'publicips', 'v6mainip', 'ips', 'addresses', 'address', 'dedicatedip', 'assignedips',
  'networks', 'publicnet', 'privatenet', 'privateip', 'privateips', 'internalip', 'v4', 'v6', 'allocations',
  'relationships', 'data', 'attributes', 'ipv4address', 'ipv6address', 'publicaddress', 'privateaddress',
  'primaryipv4', 'primaryipv6', 'accessipv4', 'accessipv6', 'floatingip', 'interfaces', 'nics', 'network']);
/** Host names a customer connects to, when no IP is given. A machine's own `hostname` often resolves nowhere. */
const NAME_FIELDS = ['fqdn', 'domain'];

const MAX_DEPTH = 8;
const MAX_NODES = 64;
const MAX_ENTRIES = 16;
const MAX_KEYS = 64;
export const MAX_ADDRESSES = 16;
/** Longer than any address list a field holds; longer text is not read. */
const MAX_TEXT = 1024;

interface Candidate { readonly text: string; readonly v4: boolean; readonly private: boolean; readonly primary: boolean; readonly path: string }
interface Node { readonly value: unknown; readonly depth: number; readonly private?: boolean; readonly primary: boolean; readonly path: string }

/** A dotted quad, read by hand: this runs for every address of every order. */
function ipv4(text: string): boolean {
  let parts = 0;
  let digits = 0;
  let value = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 46;
    if (code >= 48 && code <= 57) {
      value = value * 10 + code - 48;
      if (++digits > 3) return false;
    } else if (code === 46 && digits > 0 && value <= 255) {
      parts++;
      digits = 0;
      value = 0;
    } else {
      return false;
    }
  }
  return parts === 4;
}

function ipv6(text: string): boolean {
  return text.length <= 45 && text.includes(':') && /^[\da-f:.]+$/i.test(text);
}

function isPrivate(text: string, v4: boolean): boolean {
  if (!v4) return /^(?:f[cd]|fe80|::1$)/i.test(text);
  const first = text.indexOf('.');
  const a = Number(text.slice(0, first));
  const b = Number(text.slice(first + 1, text.indexOf('.', first + 1)));
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

const SCOPE_KEYS = new Set(['type', 'access', 'scope', 'visibility']);
const PRIMARY_KEYS = new Set(['isdefault', 'isprimary', 'primary', 'default', 'main']);

/** `public`/`private` from a sibling word (`type: "public"`) or flag (`is_public: false`). */
function scopeFrom(squashed: string, value: unknown): boolean | undefined {
  if (SCOPE_KEYS.has(squashed) && typeof value === 'string') {
    const word = value.toLowerCase();
    if (word === 'public' || word === 'external') return false;
    if (word === 'private' || word === 'internal') return true;
  }
  if ((squashed === 'public' || squashed === 'ispublic') && typeof value === 'boolean') return !value;
  return undefined;
}

function scopeOfKey(key: string, inherited: boolean | undefined): boolean | undefined {
  if (key.includes('private') || key.includes('internal')) return true;
  return key.includes('public') ? false : inherited;
}

function readText(node: Node, found: Candidate[]): void {
  const value = node.value as string;
  if (value.length > MAX_TEXT) return;
  // A field may list several addresses in one text; most hold one, and skip the split.
  const parts = /[\s,;]/.test(value) ? value.split(/[\s,;]+/, MAX_ENTRIES) : [value];
  for (const part of parts) {
    const ip = part ? readIp(part) : undefined;
    if (ip) found.push({ text: ip.text, v4: ip.v4, private: node.private ?? isPrivate(ip.text, ip.v4), primary: node.primary, path: node.path });
  }
}

/** One pass over an object's keys: its scope and primary flags, and the address-like children to visit. */
function readObject(node: Node, value: RawObject, queue: Node[], tracing: boolean): void {
  let scope = node.private;
  let primary = node.primary;
  const children: string[] = [];
  let scanned = 0;
  for (const key in value) {
    if (++scanned > MAX_KEYS) break;
    const squashed = squash(key);
    if (ADDRESS_KEYS.has(squashed)) children.push(key);
    scope = scopeFrom(squashed, value[key]) ?? scope;
    if (PRIMARY_KEYS.has(squashed) && value[key] === true) primary = true;
  }
  for (const key of children) {
    const path = tracing ? joinPath(node.path, key) : '';
    queue.push({ value: value[key], depth: node.depth + 1, private: scopeOfKey(squash(key), scope), primary, path });
  }
}

function collect(root: RawObject, base: string, tracing: boolean): Candidate[] {
  const found: Candidate[] = [];
  const queue: Node[] = [{ value: root, depth: 0, primary: false, path: base }];
  for (let i = 0; i < queue.length && i < MAX_NODES && found.length < MAX_ADDRESSES * 2; i++) {
    const node = queue[i] as Node;
    const { value } = node;
    if (typeof value === 'string') {
      readText(node, found);
    } else if (node.depth < MAX_DEPTH && Array.isArray(value)) {
      const path = tracing ? `${node.path}[]` : '';
      for (let j = 0; j < value.length && j < MAX_ENTRIES; j++) {
        queue.push({ value: value[j], depth: node.depth + 1, private: node.private, primary: node.primary, path });
      }
    } else if (node.depth < MAX_DEPTH && isObject(value)) {
      readObject(node, value, queue, tracing);
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
  if (found.length === 1) return { address: best.text, addresses: [best.text] };
  const all = new Map<string, string>();
  for (const v4 of [true, false]) {
    for (const c of found) if (c.v4 === v4 && !all.has(c.text.toLowerCase())) all.set(c.text.toLowerCase(), c.text);
  }
  return { address: best.text, addresses: [...all.values()].slice(0, MAX_ADDRESSES) };
}

function isHostName(text: string): boolean {
  return text.length <= 253 && text.includes('.') && /^[a-z\d.-]+$/i.test(text);
}
