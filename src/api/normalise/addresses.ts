/**
 * An order's addresses, wherever the provider nests them: `ip`, `main_ip`, `ipv4: [...]`, `public_net.ipv4.ip`,
 * `networks.v4[].ip_address` with `type: "public"`, `ip_addresses.ip_address[]` with `access`, allocations marked
 * `is_default`. The walk is breadth-first over address-like keys only, with bounded depth and nodes.
 */

import { type RawObject } from '../models';
import { type FieldTrace, isObject, joinPath, squash, textHit } from './read';
import { ipv4, ipv6, isPrivateV4, isPrivateV6 } from './ipLiterals';

/** Keys whose values may hold addresses, squashed (no case, `_` or `-`). */
const ADDRESS_KEYS = new Set([
  'ip',
  'ipv4',
  'ipv6',
  'ipaddress',
  'ipaddresses',
  'mainip',
  'primaryip',
  'publicip',
  'publicipv4',
  'publicipv6',
  'publicips',
  'v6mainip',
  'ips',
  'addresses',
  'address',
  'dedicatedip',
  'assignedips',
  'networks',
  'publicnet',
  'privatenet',
  'privateip',
  'privateips',
  'internalip',
  'v4',
  'v6',
  'allocations',
  'relationships',
  'data',
  'attributes',
  'ipv4address',
  'ipv6address',
  'publicaddress',
  'privateaddress',
  'primaryipv4',
  'primaryipv6',
  'accessipv4',
  'accessipv6',
  'floatingip',
  'interfaces',
  'nics',
  'network',
]);
/** Host names a customer connects to, when no IP is given. A machine's own `hostname` often resolves nowhere. */
const NAME_FIELDS = ['fqdn', 'domain'];

const MAX_DEPTH = 8;
const MAX_NODES = 64;
const MAX_ENTRIES = 16;
const MAX_KEYS = 64;
export const MAX_ADDRESSES = 16;
/** Longer than any address list a field holds; longer text is not read. */
const MAX_TEXT = 1024;

interface Candidate {
  readonly text: string;
  readonly v4: boolean;
  readonly private: boolean;
  readonly primary: boolean;
  readonly path: string;
}
interface Node {
  readonly value: unknown;
  readonly depth: number;
  readonly private?: boolean;
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

const SCOPE_KEYS = new Set(['type', 'access', 'scope', 'visibility']);
const PRIMARY_KEYS = new Set(['isdefault', 'isprimary', 'primary', 'default', 'main']);

/** What a key is to the walk, from its squashed name: bits, so one cached number per key name says it all. */
const ADDRESS = 1;
const SCOPE = 2;
const PUBLIC_FLAG = 4;
const PRIMARY = 8;
const KEY_PRIVATE = 16;
const KEY_PUBLIC = 32;

export function addressBits(squashed: string): number {
  let bits = 0;
  if (ADDRESS_KEYS.has(squashed)) bits |= ADDRESS;
  if (SCOPE_KEYS.has(squashed)) bits |= SCOPE;
  if (squashed === 'public' || squashed === 'ispublic') bits |= PUBLIC_FLAG;
  if (PRIMARY_KEYS.has(squashed)) bits |= PRIMARY;
  if (squashed.includes('private') || squashed.includes('internal')) bits |= KEY_PRIVATE;
  else if (squashed.includes('public')) bits |= KEY_PUBLIC;
  return bits;
}

/** Bits by key as sent, for nested objects; bounded like `squash`'s cache, since server keys are hostile. */
const bitsByKey = new Map<string, number>();

function bitsOf(key: string): number {
  let bits = bitsByKey.get(key);
  if (bits === undefined) {
    bits = addressBits(squash(key));
    if (bitsByKey.size < 10_000 && key.length <= 64) bitsByKey.set(key, bits);
  }
  return bits;
}

/** `public`/`private` from a sibling word (`type: "public"`) or flag (`is_public: false`). */
function scopeFrom(bits: number, value: unknown): boolean | undefined {
  if (bits & SCOPE && typeof value === 'string') {
    const word = value.toLowerCase();
    if (word === 'public' || word === 'external') return false;
    if (word === 'private' || word === 'internal') return true;
  }
  if (bits & PUBLIC_FLAG && typeof value === 'boolean') return !value;
  return undefined;
}

function scopeOfKey(bits: number, inherited: boolean | undefined): boolean | undefined {
  if (bits & KEY_PRIVATE) return true;
  return bits & KEY_PUBLIC ? false : inherited;
}

/** Keys of one object read for the walk; a caller with its own pass over the keys feeds only the first `MAX_KEYS`. */
export const MAX_ADDRESS_KEYS = MAX_KEYS;

/** One object's scope and primary flags and its address-like children, fed key by key. */
export class AddressScan {
  children: string[] | undefined;

  constructor(
    public scope: boolean | undefined,
    public primary: boolean,
  ) {}

  /** Every key, whatever its value: a null child still counts as a node of the walk. */
  note(key: string, bits: number, value: unknown): void {
    if (bits & ADDRESS) (this.children ??= []).push(key);
    if (bits & (SCOPE | PUBLIC_FLAG)) {
      const scope = scopeFrom(bits, value);
      if (scope !== undefined) this.scope = scope;
    }
    if (bits & PRIMARY && value === true) this.primary = true;
  }
}

function readText(value: string, priv: boolean | undefined, primary: boolean, path: string, found: Candidate[]): void {
  if (value.length > MAX_TEXT) return;
  // Most fields hold one address. Text with a separator is never one address, so trying it whole first changes nothing.
  if (pushIp(value, priv, primary, path, found) || !/[\s,;]/.test(value)) return;
  for (const part of value.split(/[\s,;]+/, MAX_ENTRIES)) {
    if (part) pushIp(part, priv, primary, path, found);
  }
}

/** One pass over an object's keys: its scope and primary flags, and the address-like children to visit. */
function readObject(node: Node, value: RawObject, queue: Node[], tracing: boolean): void {
  const scan = new AddressScan(node.private, node.primary);
  let scanned = 0;
  for (const key in value) {
    if (++scanned > MAX_KEYS) break;
    const bits = bitsOf(key);
    if (bits !== 0) scan.note(key, bits, value[key]);
  }
  pushChildren(node, value, scan, queue, tracing);
}

function pushChildren(node: Node, value: RawObject, scan: AddressScan, queue: Node[], tracing: boolean): void {
  if (!scan.children) return;
  const { scope, primary } = scan;
  for (const key of scan.children) {
    const path = tracing ? joinPath(node.path, key) : '';
    queue.push({ value: value[key], depth: node.depth + 1, private: scopeOfKey(bitsOf(key), scope), primary, path });
  }
}

/** The walk from an object whose own keys were already read into `scan`. */
function collectFrom(root: RawObject, scan: AddressScan, base: string, tracing: boolean): Candidate[] {
  const found: Candidate[] = [];
  const { children } = scan;
  if (!children) return found;
  let flat = true;
  for (const key of children) {
    const value = root[key];
    if (typeof value === 'object' && value !== null) {
      flat = false;
      break;
    }
  }
  if (flat) {
    // No child to look into: the walk is the children in order, as nodes 1 to MAX_NODES - 1.
    const { scope, primary } = scan;
    for (let i = 0; i < children.length && i + 1 < MAX_NODES && found.length < MAX_ADDRESSES * 2; i++) {
      const key = children[i] as string;
      const value = root[key];
      if (typeof value === 'string') {
        readText(value, scopeOfKey(bitsOf(key), scope), primary, tracing ? joinPath(base, key) : '', found);
      }
    }
    return found;
  }
  const rootNode: Node = { value: root, depth: 0, primary: false, path: base };
  const queue: Node[] = [rootNode];
  pushChildren(rootNode, root, scan, queue, tracing);
  walk(queue, 1, found, tracing);
  return found;
}

function walk(queue: Node[], from: number, found: Candidate[], tracing: boolean): void {
  for (let i = from; i < queue.length && i < MAX_NODES && found.length < MAX_ADDRESSES * 2; i++) {
    const node = queue[i] as Node;
    const { value } = node;
    if (typeof value === 'string') {
      readText(value, node.private, node.primary, node.path, found);
    } else if (node.depth < MAX_DEPTH && Array.isArray(value)) {
      const path = tracing ? `${node.path}[]` : '';
      for (let j = 0; j < value.length && j < MAX_ENTRIES; j++) {
        queue.push({ value: value[j], depth: node.depth + 1, private: node.private, primary: node.primary, path });
      }
    } else if (node.depth < MAX_DEPTH && isObject(value)) {
      readObject(node, value, queue, tracing);
    }
  }
}

function collect(root: RawObject, base: string, tracing: boolean): Candidate[] {
  const found: Candidate[] = [];
  walk([{ value: root, depth: 0, primary: false, path: base }], 0, found, tracing);
  return found;
}

function rank(candidate: Candidate): number {
  return (candidate.private ? 4 : 0) + (candidate.v4 ? 0 : 2) + (candidate.primary ? 0 : 1);
}

/** The main public address (IPv4 preferred) and every address, IPv4 first, without repeats, at most sixteen. */
export function readAddresses(
  obj: RawObject,
  base: string,
  trace?: FieldTrace,
): { address?: string; addresses?: string[] } {
  return choose(obj, collect(obj, base, trace !== undefined), base, trace);
}

/** `readAddresses` for an object whose first `MAX_ADDRESS_KEYS` keys a caller already fed to `scan`. */
export function readAddressesFrom(
  obj: RawObject,
  scan: AddressScan,
  base: string,
  trace?: FieldTrace,
): { address?: string; addresses?: string[] } {
  return choose(obj, collectFrom(obj, scan, base, trace !== undefined), base, trace);
}

function choose(
  obj: RawObject,
  found: Candidate[],
  base: string,
  trace?: FieldTrace,
): { address?: string; addresses?: string[] } {
  let best: Candidate | undefined;
  for (const next of found) if (!best || rank(next) < rank(best)) best = next;
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
