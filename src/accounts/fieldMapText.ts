import { FIELD_MAP_KEYS, type FieldMap, parseFieldMap } from '../api/normalise/fieldMap';

/** The document a map is edited in: every field the map knows, `null` where the general reading decides. */
export function fieldMapTemplate(map: FieldMap | undefined): string {
  const pointers = Object.fromEntries(FIELD_MAP_KEYS.map((key) => [key, map?.pointers[key] ?? null]));
  return `${JSON.stringify({ pointers, amountScale: map?.amountScale ?? null }, null, 2)}\n`;
}

/**
 * The map an edited document holds (`null` fields left out), or undefined for none at all; throws a SyntaxError for
 * text that is not JSON and `parseFieldMap`'s typed ApiError for a map that breaks its rules.
 */
export function editedFieldMap(text: string): FieldMap | undefined {
  const top = withoutNulls(JSON.parse(text));
  const map = parseFieldMap(
    isObject(top) && 'pointers' in top ? { ...top, pointers: withoutNulls(top.pointers) } : top,
  );
  return Object.keys(map.pointers).length || map.amountScale ? map : undefined;
}

function withoutNulls(value: unknown): unknown {
  return isObject(value) ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
