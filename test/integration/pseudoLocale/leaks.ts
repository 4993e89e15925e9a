/**
 * Finds English on screen in the pseudo-locale run. Every string of ours arrives pseudo-translated (accented letters
 * inside ⟦ ⟧, see test/l10n/pseudo.ts), so any plain ASCII word left after taking out what the server sent is a
 * string that bypassed l10n.
 */

/**
 * Words that are locale formatting rather than text: Intl has no data for the pseudo-locale and formats times and
 * dates as English ("9:26 AM", "Mar 14, 2021").
 */
const FORMATTING =
  /\b\d{1,2}:\d{2}(?::\d{2})?\s?[ap]m\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec) \d{1,2}\b/g;
/** Codicons (`$(key)`), code spans and link targets are not prose; Markdown escapes are undone first. */
const NOT_PROSE = /\$\([\w~-]+\)|`[^`]*`|\]\([^)]*\)|https?:\/\/\S+/g;
const WORD = /[A-Z]{2,}/gi;

/** Every key and scalar value of what the server sent, longest first (so a longer value is taken out before a part of it). */
export function serverStrings(...data: unknown[]): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, depth: number): void => {
    if (depth > 8 || value === null || value === undefined) return;
    if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        found.add(key);
        walk(item, depth + 1);
      }
      return;
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') found.add(String(value));
  };
  for (const item of data) walk(item, 0);
  return [...found].filter((text) => text.length > 1).sort((a, b) => b.length - a.length);
}

/**
 * Server words reach the screen also as the views tidy them ("created_at" → "Created at", "suspended" →
 * "Suspended"), so both sides are compared in one form: lower case, `_` and `-` as spaces.
 */
function normalise(text: string): string {
  return text.toLowerCase().replace(/[_-]+/g, ' ');
}

/**
 * A server's own text quoted in a message (`…: "<excerpt of the body>".`) is server data whatever words it holds,
 * cut mid-word as it may be: it runs from `: "` to the last quote before the message's closing pseudo bracket.
 */
function withoutQuotedExcerpts(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf(': "', from);
    if (open < 0) return out + text.slice(from);
    const end = text.indexOf('⟧', open);
    const close = text.lastIndexOf('"', end < 0 ? text.length : end);
    if (close <= open + 2) {
      out += text.slice(from, open + 3);
      from = open + 3;
    } else {
      out += `${text.slice(from, open + 1)} `;
      from = close + 1;
    }
  }
}

/** The plain English words in `text` that are not server data. */
export function englishIn(text: string, server: readonly string[]): string[] {
  let rest = withoutQuotedExcerpts(text.replace(/\\(.)/g, '$1'));
  // Times and dates first: a server value such as "5" must not break up "5:28:38 PM".
  rest = normalise(rest.replace(NOT_PROSE, ' ')).replace(FORMATTING, ' ');
  for (const value of server) rest = rest.split(normalise(value)).join(' ');
  return rest.match(WORD) ?? [];
}

/** Collects what a screen showed, with where, and reports every leak at once. */
export class ScreenText {
  private readonly seen: Array<{ where: string; text: string }> = [];

  add(where: string, text: unknown): void {
    if (typeof text === 'string' && text !== '') this.seen.push({ where, text });
    else if (text && typeof text === 'object' && 'value' in text && typeof text.value === 'string') {
      this.add(where, text.value);
    } else if (text && typeof text === 'object' && 'label' in text && typeof text.label === 'string') {
      this.add(where, text.label);
    }
  }

  get count(): number {
    return this.seen.length;
  }

  leaks(server: readonly string[]): string[] {
    return this.seen.flatMap(({ where, text }) => {
      const words = englishIn(text, server);
      return words.length ? [`${where}: ${JSON.stringify(text)} → ${words.join(', ')}`] : [];
    });
  }
}
