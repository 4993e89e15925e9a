/**
 * An order's addresses, wherever the provider nests them: `ip`, `main_ip`, `ipv4: [...]`, `public_net.ipv4.ip`,
 * `networks.v4[].ip_address` with `type: "public"`, `ip_addresses.ip_address[]` with `access`, allocations marked
 * `is_default`. The walk is breadth-first over address-like keys only, with bounded depth and nodes.
 */

import { type RawObject, type RefusedAddress } from '../models';
import { checkHost } from '../../util/hostCheck';
import { type FieldTrace, isObject, joinPath, textHit } from './read';
import { AddressScan, HOST_FIELD, MAX_ADDRESS_KEYS, bitsOf, scopeOfKey } from './addressKeys';
import { type Candidate, MAX_ENTRIES, readText, refuse } from './addressText';

/** Host names a customer connects to, when no IP is given. A machine's own `hostname` often resolves nowhere. */
const NAME_FIELDS = ['fqdn', 'domain'];

const MAX_DEPTH = 8;
const MAX_NODES = 64;
export const MAX_ADDRESSES = 16;

interface Node {
  readonly value: unknown;
  readonly depth: number;
  readonly private?: boolean;
  readonly primary: boolean;
  readonly path: string;
  /** Under a field meant for an address (see `readText`). */
  readonly host?: boolean;
}

/** What the walk gathers: the addresses found, and the values refused as addresses. */
interface Found {
  readonly candidates: Candidate[];
  readonly refused: RefusedAddress[];
}

export interface OrderAddresses {
  address?: string;
  addresses?: string[];
  refused?: RefusedAddress[];
}

/** One pass over an object's keys: its scope and primary flags, and the address-like children to visit. */
function readObject(node: Node, value: RawObject, queue: Node[], tracing: boolean): void {
  const scan = new AddressScan(node.private, node.primary);
  let scanned = 0;
  for (const key in value) {
    if (++scanned > MAX_ADDRESS_KEYS) break;
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
    const bits = bitsOf(key);
    const host = (bits & HOST_FIELD) !== 0;
    queue.push({ value: value[key], depth: node.depth + 1, private: scopeOfKey(bits, scope), primary, path, host });
  }
}

/** The walk from an object whose own keys were already read into `scan`. */
function collectFrom(root: RawObject, scan: AddressScan, base: string, tracing: boolean): Found {
  const found: Found = { candidates: [], refused: [] };
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
    const { candidates } = found;
    for (let i = 0; i < children.length && i + 1 < MAX_NODES && candidates.length < MAX_ADDRESSES * 2; i++) {
      const key = children[i] as string;
      const value = root[key];
      if (typeof value === 'string') {
        const bits = bitsOf(key);
        const path = tracing ? joinPath(base, key) : '';
        const refused = bits & HOST_FIELD ? found.refused : undefined;
        readText(value, scopeOfKey(bits, scope), primary, path, candidates, refused);
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

function walk(queue: Node[], from: number, found: Found, tracing: boolean): void {
  const { candidates } = found;
  for (let i = from; i < queue.length && i < MAX_NODES && candidates.length < MAX_ADDRESSES * 2; i++) {
    const node = queue[i] as Node;
    const { value } = node;
    if (typeof value === 'string') {
      readText(value, node.private, node.primary, node.path, candidates, node.host ? found.refused : undefined);
    } else if (node.depth < MAX_DEPTH && Array.isArray(value)) {
      const path = tracing ? `${node.path}[]` : '';
      for (let j = 0; j < value.length && j < MAX_ENTRIES; j++) {
        queue.push({ ...node, value: value[j], depth: node.depth + 1, path });
      }
    } else if (node.depth < MAX_DEPTH && isObject(value)) {
      readObject(node, value, queue, tracing);
    }
  }
}

function collect(root: RawObject, base: string, tracing: boolean): Found {
  const found: Found = { candidates: [], refused: [] };
  walk([{ value: root, depth: 0, primary: false, path: base }], 0, found, tracing);
  return found;
}

function rank(candidate: Candidate): number {
  return (candidate.private ? 4 : 0) + (candidate.v4 ? 0 : 2) + (candidate.primary ? 0 : 1);
}

/**
 * The main public address (IPv4 preferred), every address (IPv4 first, without repeats, at most sixteen), and the
 * values refused as addresses.
 */
export function readAddresses(obj: RawObject, base: string, trace?: FieldTrace): OrderAddresses {
  return choose(obj, collect(obj, base, trace !== undefined), base, trace);
}

/** `readAddresses` for an object whose first `MAX_ADDRESS_KEYS` keys a caller already fed to `scan`. */
export function readAddressesFrom(obj: RawObject, scan: AddressScan, base: string, trace?: FieldTrace): OrderAddresses {
  return choose(obj, collectFrom(obj, scan, base, trace !== undefined), base, trace);
}

function choose(
  obj: RawObject,
  { candidates: found, refused }: Found,
  base: string,
  trace?: FieldTrace,
): OrderAddresses {
  const chosen = pick(obj, found, refused, base, trace);
  if (refused.length) chosen.refused = refused;
  return chosen;
}

function pick(
  obj: RawObject,
  found: Candidate[],
  refused: RefusedAddress[],
  base: string,
  trace?: FieldTrace,
): OrderAddresses {
  let best: Candidate | undefined;
  for (const next of found) if (!best || rank(next) < rank(best)) best = next;
  if (!best) {
    // A host name (with a dot: a word alone is no public host) when the server gave no address.
    const name = textHit(obj, NAME_FIELDS);
    const check = name && checkHost(name.text);
    if (name && check && !check.ok) refuse(refused, name.text, check.problem);
    if (!name || !check?.ok || !name.text.includes('.')) return {};
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
