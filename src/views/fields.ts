import { escapeMarkdown, truncate } from './text';

/** A field the server sent, as the tree and the tooltips show it. */
export interface Field {
  readonly key: string;
  /** A one-line rendering for scalars; undefined for objects and arrays, which have `children`. */
  readonly value?: string;
  readonly children?: readonly Field[];
}

/** Every field the server sent, nested objects and arrays included, in the server's order. */
export function fieldsOf(value: unknown, depth = 0): Field[] {
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [`[${index}]`, item])
    : typeof value === 'object' && value !== null
      ? Object.entries(value)
      : [];
  return entries.map(([key, item]) => {
    if (typeof item === 'object' && item !== null && depth < 6) {
      const children = fieldsOf(item, depth + 1);
      return children.length ? { key, children } : { key, value: Array.isArray(item) ? '[]' : '{}' };
    }
    return { key, value: scalarText(item) };
  });
}

export function scalarText(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

/** Markdown with every field, for tooltips; server text is escaped so it cannot inject links or markup. */
export function fieldsMarkdown(fields: readonly Field[], indent = ''): string {
  return fields
    .map((field) => {
      const line = `${indent}- **${escapeMarkdown(field.key)}**`;
      if (field.children) return `${line}\n${fieldsMarkdown(field.children, `${indent}  `)}`;
      return `${line}: ${escapeMarkdown(truncate(field.value ?? '', 200))}`;
    })
    .join('\n');
}
