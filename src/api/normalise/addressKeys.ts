/**
 * What an object's keys say to the address walk: which keys may hold addresses, and which mark their neighbours as
 * public, private or primary. Read from the squashed key name into bits, so one cached number per name says it all.
 */

import { squash } from './read';

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
/** Address keys that hold other objects rather than addresses: a text under them is no address field. */
const CONTAINER_KEYS = new Set([
  'networks',
  'publicnet',
  'privatenet',
  'allocations',
  'relationships',
  'data',
  'attributes',
  'interfaces',
  'nics',
  'network',
]);
const SCOPE_KEYS = new Set(['type', 'access', 'scope', 'visibility']);
const PRIMARY_KEYS = new Set(['isdefault', 'isprimary', 'primary', 'default', 'main']);

/** What a key is to the walk, from its squashed name: bits, so one cached number per key name says it all. */
const ADDRESS = 1;
const SCOPE = 2;
const PUBLIC_FLAG = 4;
const PRIMARY = 8;
const KEY_PRIVATE = 16;
const KEY_PUBLIC = 32;
/** A field meant for an address: what it holds is an address, or a value refused as one. */
export const HOST_FIELD = 64;

export function addressBits(squashed: string): number {
  let bits = 0;
  if (ADDRESS_KEYS.has(squashed)) bits |= CONTAINER_KEYS.has(squashed) ? ADDRESS : ADDRESS | HOST_FIELD;
  if (SCOPE_KEYS.has(squashed)) bits |= SCOPE;
  if (squashed === 'public' || squashed === 'ispublic') bits |= PUBLIC_FLAG;
  if (PRIMARY_KEYS.has(squashed)) bits |= PRIMARY;
  if (squashed.includes('private') || squashed.includes('internal')) bits |= KEY_PRIVATE;
  else if (squashed.includes('public')) bits |= KEY_PUBLIC;
  return bits;
}

/** Bits by key as sent, for nested objects; bounded like `squash`'s cache, since server keys are hostile. */
const bitsByKey = new Map<string, number>();

export function bitsOf(key: string): number {
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

export function scopeOfKey(bits: number, inherited: boolean | undefined): boolean | undefined {
  if (bits & KEY_PRIVATE) return true;
  return bits & KEY_PUBLIC ? false : inherited;
}

/** Keys of one object read for the walk; a caller with its own pass over the keys feeds only the first this many. */
export const MAX_ADDRESS_KEYS = 64;

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
