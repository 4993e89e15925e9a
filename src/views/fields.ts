import { forLabel, forMarkdown } from '../notify/inert';

// Worded by the caller, so this module stays free of `vscode` (unit tests load it).
type MoreText = (count: number) => string;

export interface Field {
  readonly key: string;
  readonly value?: string;
  readonly children?: readonly Field[];
  /** The one entry that stands for those left out of a long object or array: how many. */
  readonly omitted?: number;
}

const MAX_FIELDS = 200;
const MAX_DEPTH = 6;

/** In the server's order, bounded in count and depth; keys and values are server text, made inert by the sinks. */
export function fieldsOf(value: unknown, depth = 0): Field[] {
  const { entries, more } = entriesOf(value);
  const fields = entries.map(([key, item]): Field => {
    if (typeof item === 'object' && item !== null && depth < MAX_DEPTH) {
      const inner = entriesOf(item);
      if (!inner.entries.length) return { key, value: Array.isArray(item) ? '[]' : '{}' };
      return { key, children: fieldsOf(item, depth + 1) };
    }
    return { key, value: scalarText(item) };
  });
  return more ? [...fields, { key: '', omitted: more }] : fields;
}

function entriesOf(value: unknown): { entries: Array<[string, unknown]>; more: number } {
  if (Array.isArray(value)) {
    const shown = value.slice(0, MAX_FIELDS).map((item, index): [string, unknown] => [`[${index}]`, item]);
    return { entries: shown, more: value.length - shown.length };
  }
  if (typeof value !== 'object' || value === null) return { entries: [], more: 0 };
  const entries: Array<[string, unknown]> = [];
  let count = 0;
  // `for…in` stops early; Object.entries would copy every key of a huge object first.
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (count++ < MAX_FIELDS) entries.push([key, (value as Record<string, unknown>)[key]]);
    else if (count > MAX_FIELDS * 50) break;
  }
  return { entries, more: count - entries.length };
}

export function scalarText(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

const MAX_LINES = 60;

export function fieldsMarkdown(fields: readonly Field[], moreText: MoreText): string {
  const lines: string[] = [];
  let left = 0;
  const walk = (list: readonly Field[], indent: string): void => {
    for (const field of list) {
      if (lines.length >= MAX_LINES) {
        left++;
        continue;
      }
      if (field.omitted) {
        lines.push(`${indent}- ${forMarkdown(moreText(field.omitted))}`);
        continue;
      }
      const line = `${indent}- **${forMarkdown(field.key, 80)}**`;
      if (field.children) {
        lines.push(line);
        walk(field.children, `${indent}  `);
      } else {
        lines.push(`${line}: ${forMarkdown(field.value ?? '', 200)}`);
      }
    }
  };
  walk(fields, '');
  if (left) lines.push(`- ${forMarkdown(moreText(left))}`);
  return lines.join('\n');
}

export function fieldRow(field: Field, moreText: MoreText): { label: string; description?: string } {
  if (field.omitted) return { label: moreText(field.omitted) };
  return { label: forLabel(field.key, 80), description: field.value === undefined ? undefined : forLabel(field.value) };
}
