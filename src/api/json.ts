/**
 * Reading a response body as JSON, within bounds, in time linear in its length, and (for the asynchronous reader) in
 * slices short enough to keep the extension host responsive: a 10 MB body must not hold the event loop for long,
 * and `JSON.parse` of one takes hundreds of milliseconds.
 *
 * How: one left-to-right scan finds where each value ends. Runs of neighbouring values of up to RUN_CHARS are handed
 * to `JSON.parse` together (native speed, and it checks their syntax); only a container too large for one run, or
 * breaking a bound inside, is taken apart, member by member. Between runs the reader may pause.
 * - a UTF-8 byte-order mark is skipped (some Windows servers send one);
 * - a value nested deeper than `maxDepth` is replaced by TOO_DEEP_MARKER, so no reader downstream can recurse without
 *   end, and one odd field does not make the whole list unreadable;
 * - integers beyond 2^53 are read as strings of their exact digits: `9007199254740993` as a number would become
 *   `…992`, another order's id, and a Stop would go to the wrong server;
 * - an object keeps its first MAX_OBJECT_KEYS members and an array its first MAX_ARRAY_ITEMS entries: the rest is
 *   scanned and counted (`omittedEntries`), never built.
 * Text that is not JSON throws a SyntaxError; the caller words that.
 */

/** Deeper than any honest payload of this API; deep enough for an order's own nested fields. */
export const MAX_JSON_DEPTH = 32;

/** What stands in for a value nested too deep: the rest of the answer is still read. */
export const TOO_DEEP_MARKER = '(nested too deep: not read)';

/** Members of one object that are read: more than any order has fields; a wider object is not data to show. */
export const MAX_OBJECT_KEYS = 500;

/** Entries of one array that are read: more orders than any account has; the rest of a longer list is counted. */
export const MAX_ARRAY_ITEMS = 20_000;

/**
 * Longest stretch of work before the event loop may turn. Short, since on a busy machine the wall time of a slice
 * (what the rest of the extension host waits) is a multiple of its work.
 */
export const SLICE_MS = 5;

/** Text handed to `JSON.parse` at once: about a millisecond of work. */
const RUN_CHARS = 128 * 1024;

/** Work between two looks at the clock while scanning what is not built (the omitted rest, a value cut too deep). */
const SCAN_STEP = 256 * 1024;

/** Members measured or skipped between two looks at the clock: well under a millisecond, even before the JIT. */
const CLOCK_EVERY = 512;

export interface JsonBounds {
  readonly maxDepth?: number;
  readonly maxObjectKeys?: number;
  readonly maxArrayItems?: number;
  /** How much text one `JSON.parse` gets at most (tests make it small to take everything apart). */
  readonly runChars?: number;
  /**
   * Applied to every value parsed from text with `\u` escapes in it (the only way a text-level mask can be dodged),
   * after parsing; a generator, so its work is paced with the reading.
   */
  readonly unescaped?: (value: unknown) => Generator<void, unknown>;
}

export interface PacedReading extends JsonBounds {
  /** Longest stretch of work, in ms, before the reader lets the event loop turn. */
  readonly sliceMs?: number;
}

/** How many entries of an object or array read from JSON were left out by the bounds (0 when none). */
export function omittedEntries(value: unknown): number {
  return typeof value === 'object' && value !== null ? (omitted.get(value) ?? 0) : 0;
}

const omitted = new WeakMap<object, number>();

/** Parses a body all at once: for bodies known to be small, and for tests. Same result as `readJsonBody`. */
export function parseJsonBody(body: string, bounds: JsonBounds | number = {}): unknown {
  const reader = new Reader(body, typeof bounds === 'number' ? { maxDepth: bounds } : bounds);
  const steps = reader.document();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Parses a body, letting the event loop turn whenever `sliceMs` of work have passed. */
export async function readJsonBody(body: string, options: PacedReading = {}): Promise<unknown> {
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const reader = new Reader(body, options);
  const steps = reader.document();
  let started = performance.now();
  reader.due = () => performance.now() - started > sliceMs;
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise((resolve) => setImmediate(resolve));
    started = performance.now();
  }
}

/** A value to cut or an integer to quote, found by the scan, applied to the text before `JSON.parse` sees it. */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

/** What measuring a value found: where it ends, or that it must be taken apart (too long, or a bound broken inside). */
const TOO_BIG = -1;

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const BACKSLASH = 0x5c;

/** The reading of one body. Its steps are a generator: it yields where it may pause; the driver decides whether to. */
class Reader {
  private readonly text: string;
  private readonly maxDepth: number;
  private readonly maxKeys: number;
  private readonly maxItems: number;
  private readonly runChars: number;
  private readonly unescaped?: (value: unknown) => Generator<void, unknown>;
  private readonly marker = JSON.stringify(TOO_DEEP_MARKER);
  /** Edits found by the scan, in text order, for the run being gathered. */
  private edits: Edit[] = [];
  /** Open containers met by `measure`: their kinds and member counts, by depth below the measured value. */
  private readonly kinds: number[] = [];
  private readonly counts: number[] = [];
  at = 0;
  /** Whether the current slice of work is used up; never for the all-at-once reader. */
  due: () => boolean = () => false;

  constructor(body: string, bounds: JsonBounds) {
    this.text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
    this.maxDepth = bounds.maxDepth ?? MAX_JSON_DEPTH;
    this.maxKeys = bounds.maxObjectKeys ?? MAX_OBJECT_KEYS;
    this.maxItems = bounds.maxArrayItems ?? MAX_ARRAY_ITEMS;
    this.runChars = bounds.runChars ?? RUN_CHARS;
    this.unescaped = bounds.unescaped;
  }

  *document(): Generator<void, unknown> {
    this.skipSpace();
    if (this.at >= this.text.length) throw new SyntaxError('Unexpected end of JSON input');
    const value = yield* this.value(0);
    this.skipSpace();
    if (this.at < this.text.length) throw syntaxError('Unexpected text after the JSON value', this.at);
    return value;
  }

  /** The value at `at` (no space before it), `depth` containers down; leaves `at` after it. */
  private *value(depth: number): Generator<void, unknown> {
    const start = this.at;
    const code = this.text.charCodeAt(start);
    const container = code === OPEN_OBJECT || code === OPEN_ARRAY;
    if (container && depth >= this.maxDepth) {
      yield* this.skipContainer();
      return TOO_DEEP_MARKER;
    }
    this.edits = [];
    const end = this.measure(start, depth, start + this.runChars);
    if (end !== TOO_BIG) {
      this.at = end;
      return yield* this.parse(start, end, '', '');
    }
    if (code === OPEN_ARRAY) return yield* this.array(depth);
    if (code === OPEN_OBJECT) return yield* this.object(depth);
    // One scalar longer than a run (a huge string or number): read alone, its length unbounded but linear.
    this.edits = [];
    const whole = this.measure(start, depth, Infinity);
    this.at = whole;
    return yield* this.parse(start, whole, '', '');
  }

  private *array(depth: number): Generator<void, unknown[]> {
    const { text } = this;
    const items: unknown[] = [];
    this.at++;
    this.skipSpace();
    if (text.charCodeAt(this.at) === CLOSE_ARRAY) {
      this.at++;
      return items;
    }
    for (;;) {
      // Gather neighbouring entries into one run while they fit, within the bound on entries.
      const runStart = this.at;
      let runEnd = runStart;
      let inRun = 0;
      this.edits = [];
      let closed = false;
      while (items.length + inRun < this.maxItems) {
        const kept = this.edits.length;
        const end = this.measure(this.at, depth + 1, runStart + this.runChars);
        if (end === TOO_BIG) {
          this.edits.length = kept;
          break;
        }
        inRun++;
        runEnd = end;
        this.at = end;
        closed = this.separator(CLOSE_ARRAY);
        if (closed || (inRun % CLOCK_EVERY === 0 && this.due())) break;
      }
      if (inRun > 0) {
        const run = (yield* this.parse(runStart, runEnd, '[', ']')) as unknown[];
        for (const item of run) items.push(item);
        if (closed) return items;
        if (this.due()) yield;
        continue;
      }
      if (items.length >= this.maxItems) {
        yield* this.countRest(items, CLOSE_ARRAY, depth);
        return items;
      }
      // One entry too large for a run on its own: taken apart in turn.
      if (this.due()) yield;
      items.push(yield* this.value(depth + 1));
      if (this.separator(CLOSE_ARRAY)) return items;
      if (this.due()) yield;
    }
  }

  private *object(depth: number): Generator<void, Record<string, unknown>> {
    const { text } = this;
    const fields: Record<string, unknown> = {};
    let members = 0;
    this.at++;
    this.skipSpace();
    if (text.charCodeAt(this.at) === CLOSE_OBJECT) {
      this.at++;
      return fields;
    }
    for (;;) {
      const runStart = this.at;
      let runEnd = runStart;
      let inRun = 0;
      this.edits = [];
      let closed = false;
      while (members + inRun < this.maxKeys) {
        const kept = this.edits.length;
        const end = this.measureMember(depth, runStart + this.runChars);
        if (end === TOO_BIG) {
          this.edits.length = kept;
          break;
        }
        inRun++;
        runEnd = end;
        this.at = end;
        closed = this.separator(CLOSE_OBJECT);
        if (closed || (inRun % CLOCK_EVERY === 0 && this.due())) break;
      }
      if (inRun > 0) {
        const run = (yield* this.parse(runStart, runEnd, '{', '}')) as Record<string, unknown>;
        for (const key of Object.keys(run)) define(fields, key, run[key]);
        members += inRun;
        if (closed) return fields;
        if (this.due()) yield;
        continue;
      }
      if (members >= this.maxKeys) {
        yield* this.countRest(fields, CLOSE_OBJECT, depth);
        return fields;
      }
      // One member whose value is too large for a run: its key read here, its value taken apart.
      const keyStart = this.at;
      const keyEnd = this.endOfKey(keyStart);
      const key = (yield* this.parse(keyStart, keyEnd, '', '')) as string;
      this.at = keyEnd;
      this.skipSpace();
      if (text.charCodeAt(this.at) !== COLON) throw syntaxError('Expected ":" after a property name', this.at);
      this.at++;
      this.skipSpace();
      if (this.due()) yield;
      define(fields, key, yield* this.value(depth + 1));
      members++;
      if (this.separator(CLOSE_OBJECT)) return fields;
      if (this.due()) yield;
    }
  }

  /** After a member: `,` (then the next member must follow) or the closing bracket. Returns whether it closed. */
  private separator(close: number): boolean {
    this.skipSpace();
    const code = this.text.charCodeAt(this.at);
    if (code === close) {
      this.at++;
      return true;
    }
    if (code !== COMMA) {
      throw this.at >= this.text.length
        ? new SyntaxError('Unexpected end of JSON input')
        : syntaxError(`Expected "," or "${String.fromCharCode(close)}"`, this.at);
    }
    this.at++;
    this.skipSpace();
    const next = this.text.charCodeAt(this.at);
    if (next === CLOSE_ARRAY || next === CLOSE_OBJECT || this.at >= this.text.length) {
      throw syntaxError('Expected a value after ","', this.at);
    }
    return false;
  }

  /**
   * The members past the bound: counted, not built. Only their structure is checked (strings and brackets close,
   * members are separated): what is never read need not be valid in every detail.
   */
  private *countRest(container: object, close: number, depth: number): Generator<void> {
    let rest = 0;
    for (;;) {
      if (close === CLOSE_OBJECT) {
        this.at = this.endOfKey(this.at);
        this.skipSpace();
        if (this.text.charCodeAt(this.at) !== COLON) throw syntaxError('Expected ":" after a property name', this.at);
        this.at++;
        this.skipSpace();
      }
      yield* this.skipValue(depth + 1);
      rest++;
      if (this.separator(close)) break;
      if (rest % CLOCK_EVERY === 0 && this.due()) yield;
    }
    omitted.set(container, rest);
  }

  /** Moves past one value without building it, pausing in long ones. */
  private *skipValue(depth: number): Generator<void> {
    const code = this.text.charCodeAt(this.at);
    if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      yield* this.skipContainer();
      return;
    }
    this.edits = [];
    this.at = this.measure(this.at, depth, Infinity);
  }

  /** Moves past the container at `at`, however deep, checking that its brackets and strings close. */
  private *skipContainer(): Generator<void> {
    const { text } = this;
    let depth = 0;
    let step = this.at + SCAN_STEP;
    for (let i = this.at; i < text.length; i++) {
      if (i > step) {
        step = i + SCAN_STEP;
        if (this.due()) {
          this.at = i;
          yield;
        }
      }
      const code = text.charCodeAt(i);
      if (code === QUOTE) {
        i = this.endOfString(i);
      } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
        depth++;
      } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
        if (--depth === 0) {
          this.at = i + 1;
          return;
        }
      }
    }
    throw new SyntaxError('Unexpected end of JSON input');
  }

  /**
   * Where the value starting at `start` ends, scanning no further than `limit`; TOO_BIG when it ends past `limit` or
   * holds a container over its bound. Records the edits it needs (values too deep, integers too large).
   */
  private measure(start: number, depth: number, limit: number): number {
    const { text, kinds, counts } = this;
    const code = text.charCodeAt(start);
    if (code === QUOTE) {
      const end = this.endOfString(start) + 1;
      return end > limit ? TOO_BIG : end;
    }
    if (code !== OPEN_OBJECT && code !== OPEN_ARRAY) {
      const end = endOfScalar(text, start);
      if (end === start) throw syntaxError('Expected a value', start);
      if (end > limit) return TOO_BIG;
      this.noteNumber(start, end);
      return end;
    }
    let level = 0;
    for (let i = start; i < text.length; i++) {
      if (i >= limit) return TOO_BIG;
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i = this.endOfString(i);
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (depth + level >= this.maxDepth) {
          const end = endOfContainer(text, i, limit);
          if (end === TOO_BIG) return TOO_BIG;
          this.edits.push({ start: i, end, replacement: this.marker });
          i = end - 1;
          continue;
        }
        kinds[level] = c;
        counts[level] = 1;
        level++;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        level--;
        if (level === 0) return i + 1;
        if (level < 0) throw syntaxError('Unexpected closing bracket', i);
      } else if (c === COMMA) {
        const at = level - 1;
        const count = (counts[at] ?? 0) + 1;
        counts[at] = count;
        if (count > (kinds[at] === OPEN_OBJECT ? this.maxKeys : this.maxItems)) return TOO_BIG;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        const end = endOfScalar(text, i);
        this.noteNumber(i, end);
        i = end - 1;
      }
    }
    return text.length > limit ? TOO_BIG : text.length;
  }

  /** Measures one `"key": value` member at `at`; TOO_BIG as `measure`. */
  private measureMember(depth: number, limit: number): number {
    const { text } = this;
    let i = this.endOfKey(this.at);
    while (isSpace(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== COLON) throw syntaxError('Expected ":" after a property name', i);
    i++;
    while (isSpace(text.charCodeAt(i))) i++;
    if (i >= limit) return TOO_BIG;
    return this.measure(i, depth + 1, limit);
  }

  private endOfKey(start: number): number {
    if (this.text.charCodeAt(start) !== QUOTE) throw syntaxError('Expected a property name', start);
    return this.endOfString(start) + 1;
  }

  /** Only an integer of 16 digits or more can lie beyond 2^53; checking shorter ones would cost for nothing. */
  private noteNumber(start: number, end: number): void {
    if (end - start >= 16 && isUnsafeInteger(this.text.slice(start, end))) {
      this.edits.push({ start, end, replacement: `"${this.text.slice(start, end)}"` });
    }
  }

  /** The index of the closing quote of the string opening at `start`; throws at the end of the text. */
  private endOfString(start: number): number {
    const { text } = this;
    let at = start + 1;
    for (;;) {
      const quote = text.indexOf('"', at);
      if (quote < 0) throw new SyntaxError('Unterminated string in JSON');
      let backslashes = 0;
      while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return quote;
      at = quote + 1;
    }
  }

  private skipSpace(): void {
    while (isSpace(this.text.charCodeAt(this.at))) this.at++;
  }

  /** `JSON.parse` of the text from `start` to `end` with the run's edits applied, inside `open` and `close`. */
  private *parse(start: number, end: number, open: string, close: string): Generator<void, unknown> {
    const { text, edits } = this;
    let source: string;
    if (edits.length === 0) {
      source = open + text.slice(start, end) + close;
    } else {
      const parts = [open];
      let at = start;
      for (const edit of edits) {
        parts.push(text.slice(at, edit.start), edit.replacement);
        at = edit.end;
      }
      parts.push(text.slice(at, end), close);
      source = parts.join('');
      this.edits = [];
    }
    const value: unknown = JSON.parse(source);
    return this.unescaped && source.includes('\\u') ? yield* this.unescaped(value) : value;
  }
}

/** Defines a member as `JSON.parse` does: a key named `__proto__` is a field, never the object's prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** The end of a number or literal: the next character that cannot be part of one. */
function endOfScalar(text: string, start: number): number {
  let end = start;
  for (; end < text.length; end++) {
    const code = text.charCodeAt(end);
    if (isSpace(code) || code === COMMA || code === CLOSE_ARRAY || code === CLOSE_OBJECT || code === COLON) break;
    if (code === QUOTE || code === OPEN_ARRAY || code === OPEN_OBJECT) break;
  }
  return end;
}

/** The end (exclusive) of the container opening at `start`, skipping strings; TOO_BIG past `limit` or the text. */
function endOfContainer(text: string, start: number, limit: number): number {
  let depth = 0;
  for (let i = start; i < text.length && i < limit; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = text.indexOf('"', i + 1);
      while (i > 0 && isEscaped(text, i)) i = text.indexOf('"', i + 1);
      if (i < 0) return TOO_BIG;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      depth++;
    } else if ((code === CLOSE_OBJECT || code === CLOSE_ARRAY) && --depth === 0) {
      return i + 1;
    }
  }
  return TOO_BIG;
}

function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

/** A JSON integer (no leading zero: `0001…` is not JSON, and must stay refused) that a double cannot hold exactly. */
function isUnsafeInteger(token: string): boolean {
  const digits = token.startsWith('-') ? token.slice(1) : token;
  if (digits.charCodeAt(0) === 0x30) return false;
  for (let i = 0; i < digits.length; i++) {
    const code = digits.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return !Number.isSafeInteger(Number(token));
}

function syntaxError(what: string, at: number): SyntaxError {
  return new SyntaxError(`${what} at position ${at} of the JSON`);
}
