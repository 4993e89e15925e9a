import { type RawObject, type RefusedAddress } from '../models';
import { checkHost } from '../../util/hostCheck';
import { type Candidate, MAX_ENTRIES, readText, refuse } from './addressText';
import { type FieldTrace, type Scope, findText, joinPath, names, pathOf, squash, words } from './read';

/** Squashed: keys that may hold addresses, then keys of objects that hold them. */
const HOST_KEYS = new Set(
  words(
    'ip ipv4 ipv6 ipaddress ipaddresses mainip primaryip publicip publicipv4 publicipv6 publicips v6mainip ips ' +
      'addresses address dedicatedip assignedips privateip privateips internalip v4 v6 ipv4address ipv6address ' +
      'publicaddress privateaddress primaryipv4 primaryipv6 accessipv4 accessipv6 floatingip',
  ),
);
const CONTAINER_KEYS = new Set(
  words('networks publicnet privatenet allocations relationships data attributes interfaces nics network ipconfig'),
);
const SCOPE_KEYS = new Set(words('type access scope visibility'));
const PRIMARY_KEYS = new Set(words('isdefault isprimary primary default main'));
/** When no IP is given; a machine's own `hostname` often resolves nowhere. */
const NAME_FIELDS = names('fqdn domain');

const MAX_DEPTH = 8;
const MAX_NODES = 64;
const MAX_KEYS = 64;
export const MAX_ADDRESSES = 16;

interface Node {
  readonly value: unknown;
  readonly depth: number;
  readonly private?: boolean;
  readonly primary: boolean;
  readonly path: string;
  /** Under a field meant for an address: a refused value is told. */
  readonly host?: boolean;
}

interface OrderAddresses {
  address?: string;
  addresses?: string[];
  refused?: RefusedAddress[];
}

function scopeFrom(key: string, value: unknown): boolean | undefined {
  if (SCOPE_KEYS.has(key) && typeof value === 'string') {
    const word = value.toLowerCase();
    if (word === 'public' || word === 'external') return false;
    if (word === 'private' || word === 'internal') return true;
  }
  return (key === 'public' || key === 'ispublic') && typeof value === 'boolean' ? !value : undefined;
}

function visit(node: Node, obj: RawObject, queue: Node[]): void {
  let priv = node.private;
  let primary = node.primary;
  const children: Array<[string, string]> = [];
  let scanned = 0;
  for (const key in obj) {
    if (++scanned > MAX_KEYS) break;
    const s = squash(key);
    if (HOST_KEYS.has(s) || CONTAINER_KEYS.has(s)) children.push([key, s]);
    priv = scopeFrom(s, obj[key]) ?? priv;
    if (PRIMARY_KEYS.has(s) && obj[key] === true) primary = true;
  }
  for (const [key, s] of children) {
    const own = s.includes('private') || s.includes('internal') ? true : s.includes('public') ? false : priv;
    const path = joinPath(node.path, key);
    queue.push({ value: obj[key], depth: node.depth + 1, private: own, primary, path, host: HOST_KEYS.has(s) });
  }
}

function rank(candidate: Candidate): number {
  return (candidate.private ? 4 : 0) + (candidate.v4 ? 0 : 2) + (candidate.primary ? 0 : 1);
}

export function readAddresses(scopes: readonly Scope[], trace?: FieldTrace, mapped?: unknown): OrderAddresses {
  const found: Candidate[] = [];
  const refused: RefusedAddress[] = [];
  const queue: Node[] =
    mapped === undefined
      ? scopes.map((scope) => ({ value: scope.obj, depth: 0, primary: false, path: scope.path }))
      : [{ value: mapped, depth: 0, primary: false, path: 'map', host: true }];
  const seen = new Set<unknown>();
  for (let i = 0; i < queue.length && i < MAX_NODES && found.length < MAX_ADDRESSES * 2; i++) {
    const node = queue[i] as Node;
    const { value, depth, path } = node;
    if (typeof value === 'string') {
      readText(value, node.private, node.primary, path, found, node.host ? refused : undefined);
    } else if (depth < MAX_DEPTH && typeof value === 'object' && value !== null && !seen.has(value)) {
      seen.add(value);
      if (!Array.isArray(value)) visit(node, value as RawObject, queue);
      const list = Array.isArray(value) ? (value as unknown[]).slice(0, MAX_ENTRIES) : [];
      for (const item of list) queue.push({ ...node, value: item, depth: depth + 1, path: `${path}[]` });
    }
  }
  const chosen = choose(found, refused, mapped === undefined ? scopes : [], trace);
  if (refused.length) chosen.refused = refused;
  return chosen;
}

function choose(
  found: Candidate[],
  refused: RefusedAddress[],
  scopes: readonly Scope[],
  trace?: FieldTrace,
): OrderAddresses {
  let best: Candidate | undefined;
  for (const next of found) if (!best || rank(next) < rank(best)) best = next;
  if (!best) {
    // A word without a dot is no public host.
    const name = findText(scopes, NAME_FIELDS);
    const check = name && checkHost(name.text);
    if (name && check && !check.ok) refuse(refused, name.text, check.problem);
    if (!name || !check?.ok || !name.text.includes('.')) return {};
    trace?.use('address', pathOf(name.hit));
    return { address: name.text, addresses: [name.text] };
  }
  trace?.use('address', best.path);
  const all = new Map<string, string>();
  for (const v4 of [true, false]) {
    for (const c of found) if (c.v4 === v4 && !all.has(c.text.toLowerCase())) all.set(c.text.toLowerCase(), c.text);
  }
  return { address: best.text, addresses: [...all.values()].slice(0, MAX_ADDRESSES) };
}
