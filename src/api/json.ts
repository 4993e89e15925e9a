// Far above what an honest answer holds; `work` is in JSON_COST's nanoseconds (about 60 ms).
export const JSON_BOUNDS = { depth: 32, entries: 20_000, members: 500, work: 60_000_000 } as const;

// V8 makes an object of 128 members or more a dictionary (measured 60–230 ns a member over the rest, at 1,000–2,600
// of 150), and a hidden class for each new order of field names, or new name past 127. An integer beyond 2^53 is cut
// out, quoted and read as a string.
export const JSON_COST = { container: 100, value: 15, string: 30, wideMember: 150, nameOrder: 1000, big: 300 } as const;

export type JsonBound = keyof typeof JSON_BOUNDS;

export class JsonTooComplex extends Error {
  override readonly name = 'JsonTooComplex';

  constructor(readonly bound: JsonBound) {
    super(`The JSON answer is over the bound on ${bound} (${JSON_BOUNDS[bound]}); it was not parsed.`);
  }
}

// Integers beyond 2^53 are read as strings of their digits: `…993` would become `…992`, another order's id.
export function parseJson(body: string): unknown {
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  const big = look(text);
  if (big.length === 0) return JSON.parse(text);
  // Cut at both ends of each integer: joined with quotes, it is a string.
  const parts: string[] = [];
  let at = 0;
  for (const end of big) {
    parts.push(text.slice(at, end));
    at = end;
  }
  parts.push(text.slice(at));
  return JSON.parse(parts.join('"'));
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const WIDE = 128;
// Seeded per process, so a server cannot aim at hash collisions.
const SEEN_WORDS = 1 << 15;
const SEED = (Math.random() * 0x7fffffff) | 0;
const WIDE_SEED = SEED ^ 0x5bd1e995;

// Returns the spans of integers beyond 2^53; the syntax is left to `JSON.parse`.
function look(text: string): number[] {
  const big: number[] = [];
  const commas = new Int32Array(JSON_BOUNDS.depth + 2);
  const order = new Int32Array(JSON_BOUNDS.depth + 2);
  const isObject = new Uint8Array(JSON_BOUNDS.depth + 2);
  const seen = new Uint32Array(SEEN_WORDS);
  let depth = 0;
  let work = 0;
  let key = false;
  let after = 0;
  for (let i = 0; i < text.length; i++) {
    switch (text.charCodeAt(i)) {
      case QUOTE: {
        const end = endOfString(text, i);
        work += JSON_COST.string;
        if (key) {
          // Past the first 127 a name costs only the first time it is seen, wherever it is.
          const wide = (commas[depth] as number) >= WIDE - 1;
          let hash = wide ? WIDE_SEED : (order[depth] as number);
          for (let j = i + 1; j < end; j++) hash = Math.imul(hash ^ text.charCodeAt(j), 0x01000193);
          hash = Math.imul(hash ^ COLON, 0x01000193);
          if (!wide) order[depth] = hash;
          const word = (hash >>> 5) & (SEEN_WORDS - 1);
          const bit = 1 << (hash & 31);
          if (((seen[word] as number) & bit) === 0) {
            seen[word] = (seen[word] as number) | bit;
            work += JSON_COST.nameOrder;
          }
        }
        key = false;
        i = end;
        after = end + 1;
        break;
      }
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        if (++depth > JSON_BOUNDS.depth) throw new JsonTooComplex('depth');
        work += JSON_COST.container;
        commas[depth] = 0;
        key = text.charCodeAt(i) === OPEN_OBJECT;
        isObject[depth] = key ? 1 : 0;
        order[depth] = SEED;
        after = i + 1;
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY: {
        if (i - after >= 16 && largeInteger(text, after, i, big)) work += JSON_COST.big;
        const members = (commas[depth] as number) + 1;
        if (isObject[depth] === 1 && members >= WIDE) work += members * JSON_COST.wideMember;
        if (work > JSON_BOUNDS.work) throw new JsonTooComplex('work');
        if (depth > 0) depth--;
        key = false;
        after = i + 1;
        break;
      }
      case COMMA: {
        if (i - after >= 16 && largeInteger(text, after, i, big)) work += JSON_COST.big;
        const count = (commas[depth] as number) + 1;
        commas[depth] = count;
        key = isObject[depth] === 1;
        if (count >= (key ? JSON_BOUNDS.members : JSON_BOUNDS.entries)) {
          throw new JsonTooComplex(key ? 'members' : 'entries');
        }
        work += JSON_COST.value;
        if (work > JSON_BOUNDS.work) throw new JsonTooComplex('work');
        after = i + 1;
        break;
      }
      case COLON:
        // A number before a colon must stay an error, never become a field name.
        after = i + 1;
        break;
    }
  }
  if (text.length - after >= 16) largeInteger(text, after, text.length, big);
  return big;
}

function largeInteger(text: string, from: number, to: number, big: number[]): boolean {
  let start = from;
  let end = to;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  const digits = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  if (end - digits < 16 || text.charCodeAt(digits) === 0x30) return false;
  for (let i = digits; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  // 2^53 - 1 has sixteen digits: the length decides, and only sixteen are compared.
  if (end - digits === 16 && text.slice(digits, end) <= '9007199254740991') return false;
  big.push(start, end);
  return true;
}

function endOfString(text: string, start: number): number {
  for (let at = start + 1; ;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}
