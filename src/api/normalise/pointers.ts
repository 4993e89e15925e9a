export const FIELD_MAP_KEYS = [
  ...['orderList', 'id', 'name', 'state', 'address', 'balanceAmount', 'balanceCurrency', 'invoiceList'],
  ...['invoiceNumber', 'invoiceAmount', 'renewalDate', 'renewalPrice', 'renewalCycle', 'renews'],
] as const;

export type FieldMapKey = (typeof FIELD_MAP_KEYS)[number];

export interface FieldMap {
  readonly pointers: Readonly<Partial<Record<FieldMapKey, string>>>;
  readonly amountScale?: 'units' | 'minor';
}

export const MAX_POINTER_LENGTH = 200;
export const MAX_POINTER_SEGMENTS = 16;

/** RFC 6901. */
export function pointerSegments(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (pointer.length > MAX_POINTER_LENGTH || pointer[0] !== '/') return undefined;
  const raw = pointer.slice(1).split('/');
  if (raw.length > MAX_POINTER_SEGMENTS) return undefined;
  const segments: string[] = [];
  for (const segment of raw) {
    // `~` only escapes: `~0` is `~`, `~1` is `/`.
    if (/~(?![01])/.test(segment)) return undefined;
    segments.push(segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return segments;
}

/** Own members only, array indexes written plainly. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  const segments = pointerSegments(pointer);
  if (!segments) return undefined;
  let at = doc;
  for (const segment of segments) {
    if (Array.isArray(at)) {
      if (!/^(?:0|[1-9]\d{0,8})$/.test(segment)) return undefined;
      at = (at as unknown[])[Number(segment)];
    } else if (typeof at === 'object' && at !== null && Object.hasOwn(at, segment)) {
      at = (at as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return at;
}

/** Undefined without a pointer for `key`; `{ value }`, maybe undefined, with one. */
export function pointed(map: FieldMap | undefined, key: FieldMapKey, doc: unknown): { value: unknown } | undefined {
  const pointer = map?.pointers[key];
  return pointer === undefined ? undefined : { value: resolvePointer(doc, pointer) };
}
