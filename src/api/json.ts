/** Deeper than any honest payload of this API; deep enough for an order's own nested fields. */
export const MAX_JSON_DEPTH = 32;

/** What stands in for a value nested too deep: the rest of the answer is still read. */
export const TOO_DEEP_MARKER = '(nested too deep: not read)';

/**
 * Parses a response body as JSON, within bounds, in time linear in its length:
 * - a UTF-8 byte-order mark is skipped (some Windows servers send one);
 * - a value nested deeper than `maxDepth` is replaced by TOO_DEEP_MARKER before parsing, so no reader downstream can
 *   recurse without end, and one odd field does not make the whole list unreadable;
 * - integers beyond 2^53 are read as strings of their exact digits: `9007199254740993` as a number would become
 *   `…992`, another order's id, and a Stop would go to the wrong server.
 * Throws SyntaxError for text that is not JSON; the caller words that.
 */
export function parseJsonBody(body: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  const edits = scan(text, maxDepth);
  return JSON.parse(edits.length ? applyEdits(text, edits) : text);
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

/** One pass over the text: returns the values to cut (too deep) and the integers to quote (too large). */
function scan(text: string, maxDepth: number): Edit[] {
  const edits: Edit[] = [];
  const marker = JSON.stringify(TOO_DEEP_MARKER);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 /* " */) {
      i = endOfString(text, i);
    } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      if (depth === maxDepth) {
        const end = endOfValue(text, i);
        edits.push({ start: i, end, replacement: marker });
        i = end - 1;
      } else {
        depth++;
      }
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      depth--;
    } else if (code === 0x2d /* - */ || (code >= 0x30 && code <= 0x39)) {
      const end = endOfNumber(text, i);
      // Only an integer of 16 digits or more can lie beyond 2^53; checking shorter ones would cost for nothing.
      if (end - i >= 16 && isUnsafeInteger(text.slice(i, end))) {
        edits.push({ start: i, end, replacement: `"${text.slice(i, end)}"` });
      }
      i = end - 1;
    }
  }
  return edits;
}

/** The end (exclusive) of the object or array opening at `start`, skipping strings; the text's end if unclosed. */
function endOfValue(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) i = endOfString(text, i);
    else if (code === 0x7b || code === 0x5b) depth++;
    else if ((code === 0x7d || code === 0x5d) && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The index of the closing quote of the string opening at `start` (or the end of the text). */
function endOfString(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

function endOfNumber(text: string, start: number): number {
  let end = start + 1;
  for (; end < text.length; end++) {
    const code = text.charCodeAt(end);
    const numeric =
      (code >= 0x30 && code <= 0x39) ||
      code === 0x2e ||
      code === 0x65 ||
      code === 0x45 ||
      code === 0x2b ||
      code === 0x2d;
    if (!numeric) break;
  }
  return end;
}

function isUnsafeInteger(token: string): boolean {
  const digits = token.startsWith('-') ? token.slice(1) : token;
  for (let i = 0; i < digits.length; i++) {
    const code = digits.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return !Number.isSafeInteger(Number(token));
}

function applyEdits(text: string, edits: readonly Edit[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const { start, end, replacement } of edits) {
    parts.push(text.slice(at, start), replacement);
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
