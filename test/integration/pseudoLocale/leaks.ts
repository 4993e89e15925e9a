/**
 * Finds English on screen in the pseudo-locale run. Every string of ours arrives pseudo-translated (accented letters
 * inside ⟦ ⟧, see test/l10n/pseudo.ts), so any plain ASCII word left after taking out what the server sent is a
 * string that bypassed l10n.
 */

/**
 * KNOWN PENDING STRINGS: English that still starts in the API layer and the key store (base-URL rules, transport and
 * parsing failures, secret-storage errors) and reaches the screen through placeholders. Those layers are being changed
 * to return codes that the UI words; once that is merged, this list must be emptied, and the test then fails on
 * any of them that is still shown. Keep every such string here, and nowhere else.
 */
export const PENDING_API_LAYER_STRINGS: readonly RegExp[] = [
  // src/api/response.ts (a body that is not JSON), with the excerpt of the body it quotes.
  /The server answered with something that is not JSON instead of JSON: "[^⟧]*/g,
];

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

/** The plain English words in `text` that are neither server data nor a known pending string. */
export function englishIn(text: string, server: readonly string[]): string[] {
  let rest = text.replace(/\\(.)/g, '$1');
  for (const pending of PENDING_API_LAYER_STRINGS) rest = rest.replace(pending, ' ');
  rest = normalise(rest.replace(NOT_PROSE, ' '));
  for (const value of server) rest = rest.split(normalise(value)).join(' ');
  rest = rest.replace(FORMATTING, ' ');
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
