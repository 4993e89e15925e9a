/** Shorter secrets are not masked: masking "ab" everywhere would garble every text and hide nothing of value. */
const MIN_SECRET_LENGTH = 4;
const MASK = '***';

/** The forms a secret may take when a server echoes it, found as they are: as sent, URI-encoded, JSON-escaped, base64. */
function forms(secret: string): string[] {
  const all = new Set([
    secret,
    safeEncode(secret),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret).toString('base64'),
  ]);
  all.delete('');
  // Longest first, so a form that contains another is masked whole.
  return [...all].sort((a, b) => b.length - a.length);
}

function safeEncode(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return secret;
  }
}

/**
 * Replaces each secret's fixed forms (`forms`): what the log does to every line, cheaply. Server text is masked
 * fully (`maskSecrets`) where it enters, in the API layer.
 */
export function maskForms(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const form of forms(secret)) {
      if (out.includes(form)) out = out.split(form).join(MASK);
    }
  }
  return out;
}

/**
 * Where a stretch of text the reader never sees ends (an HTML tag, a script element): given the text and a position,
 * the position after it, or the same position when nothing is hidden there.
 */
export type Hidden = (text: string, at: number) => number;

export interface MaskOptions {
  /** Text that does not show (tags), so a secret split by it still reads whole: matched across it. */
  readonly hidden?: Hidden;
  /** Also masks the text's end when it holds the start of a secret: the text was cut from a longer one. */
  readonly cutAtEnd?: boolean;
}

/**
 * Replaces every form of each secret in `text`: as sent, JSON-escaped, base64, and URI-encoded with any of its
 * characters written as `%XX` (either case). Linear in the text for each secret: the encoded forms are looked for
 * only around a `%XX` that stands for one of the secret's bytes, unless `hidden` asks for a reading of the whole.
 * One form is not found: a secret right after a stray `%` that reads as `%XX` with its first two characters.
 */
export function maskSecrets(text: string, secrets: Iterable<string>, options: MaskOptions = {}): string {
  const steps = maskSteps(text, secrets, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** `maskSecrets` for a large text (a whole response): the event loop may turn whenever `sliceMs` of work passed. */
export async function maskSecretsInSlices(text: string, secrets: Iterable<string>, sliceMs = 5): Promise<string> {
  const steps = maskSteps(text, secrets);
  let started = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - started > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      started = performance.now();
    }
  }
}

/** Work between two places where the masking may pause: characters read, or `%` signs looked at. */
const STEP = 16_384;

/** `maskSecrets` as steps: it yields where it may pause, for a caller that paces its own work. */
export function* maskSteps(
  text: string,
  secrets: Iterable<string>,
  options: MaskOptions = {},
): Generator<void, string> {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    out = maskForms(out, [secret]);
    if (options.hidden || options.cutAtEnd || out.includes('%')) out = yield* maskSpread(out, secret, options);
  }
  return out;
}

/** A secret's UTF-8 bytes, and the KMP table over them. */
interface Pattern {
  readonly bytes: Uint8Array;
  readonly fallback: Int32Array;
  /** Which byte values occur in it: a `%XX` of another value cannot be part of a match. */
  readonly has: Uint8Array;
}

function pattern(secret: string): Pattern {
  const bytes = Buffer.from(secret, 'utf8');
  const fallback = new Int32Array(bytes.length);
  for (let i = 1, k = 0; i < bytes.length; i++) {
    while (k > 0 && bytes[i] !== bytes[k]) k = fallback[k - 1] as number;
    if (bytes[i] === bytes[k]) k++;
    fallback[i] = k;
  }
  const has = new Uint8Array(256);
  for (const byte of bytes) has[byte] = 1;
  return { bytes, fallback, has };
}

/** Hex digits' values by character code, -1 for anything else. */
const HEX = /* @__PURE__ */ hexTable();

function hexTable(): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < 16; i++) {
    table['0123456789abcdef'.charCodeAt(i)] = i;
    table['0123456789ABCDEF'.charCodeAt(i)] = i;
  }
  return table;
}

/** The byte a `%XX` at `at` stands for, or -1. */
function percentByte(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x25) return -1;
  const high = HEX[text.charCodeAt(at + 1)] ?? -1;
  const low = high < 0 ? -1 : (HEX[text.charCodeAt(at + 2)] ?? -1);
  return low < 0 ? -1 : high * 16 + low;
}

/** Masks the secret where its bytes appear with some written `%XX`, or with hidden text between them. */
function* maskSpread(text: string, secret: string, options: MaskOptions): Generator<void, string> {
  const found = pattern(secret);
  const spans: Array<[number, number]> = [];
  if (options.hidden || options.cutAtEnd) {
    yield* scan(text, found, 0, text.length, options, spans);
  } else {
    // A match holds at least one `%XX` of one of its bytes, and spans at most three characters per byte.
    const reach = 3 * found.bytes.length + 3;
    let windowStart = -1;
    let windowEnd = -1;
    let seen = 0;
    for (let at = text.indexOf('%'); at >= 0; at = text.indexOf('%', at + 1)) {
      if (++seen % STEP === 0) yield;
      const byte = percentByte(text, at);
      if (byte < 0 || !found.has[byte]) continue;
      if (at - reach > windowEnd) {
        if (windowEnd >= 0) yield* scan(text, found, windowStart, windowEnd, options, spans);
        windowStart = Math.max(0, at - reach);
      }
      windowEnd = Math.min(text.length, at + reach);
    }
    if (windowEnd >= 0) yield* scan(text, found, windowStart, windowEnd, options, spans);
  }
  if (!spans.length) return text;
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of spans) {
    if (end <= at) continue;
    parts.push(text.slice(at, Math.max(at, start)), MASK);
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * Reads `text` from `from` to `to` as the bytes it stands for (`%XX` decoded, characters as UTF-8, hidden stretches
 * skipped) and records the span of every match of the pattern, in order.
 */
function* scan(
  text: string,
  { bytes, fallback }: Pattern,
  from: number,
  to: number,
  { hidden, cutAtEnd }: MaskOptions,
  spans: Array<[number, number]>,
): Generator<void> {
  const length = bytes.length;
  /** Where the unit that gave each of the last `length` bytes starts: a ring, `slot` the next byte's place. */
  const starts = new Int32Array(length);
  const unit = new Uint8Array(4);
  let matched = 0;
  let slot = 0;
  let at = from;
  let pause = from + STEP;
  while (at < to) {
    if (at >= pause) {
      pause = at + STEP;
      yield;
    }
    if (hidden) {
      const after = hidden(text, at);
      if (after > at) {
        at = after;
        continue;
      }
    }
    const start = at;
    let size = 1;
    const code = text.charCodeAt(at);
    const byte = code === 0x25 ? percentByte(text, at) : -1;
    if (byte >= 0) {
      unit[0] = byte;
      at += 3;
    } else if (code < 0x80) {
      unit[0] = code;
      at++;
    } else {
      const point = text.codePointAt(at) ?? code;
      at += point > 0xffff ? 2 : 1;
      size = encodeUtf8(point, unit);
    }
    for (let i = 0; i < size; i++) {
      const next = unit[i];
      while (matched > 0 && bytes[matched] !== next) matched = fallback[matched - 1] as number;
      if (bytes[matched] === next) matched++;
      starts[slot] = start;
      slot = slot + 1 === length ? 0 : slot + 1;
      if (matched === length) {
        // The ring's next place holds the start of the byte `length` back: the match's first.
        addSpan(spans, starts[slot] as number, at);
        matched = fallback[length - 1] as number;
      }
    }
  }
  // A start of the secret of a few bytes tells little; a longer one is masked.
  if (cutAtEnd && matched >= Math.min(MIN_SECRET_LENGTH, length)) {
    addSpan(spans, starts[(slot - matched + length) % length] as number, text.length);
  }
}

function addSpan(spans: Array<[number, number]>, start: number, end: number): void {
  const last = spans[spans.length - 1];
  if (last && start <= last[1]) last[1] = Math.max(last[1], end);
  else spans.push([start, end]);
}

/** A code point's UTF-8 bytes into `out`; a lone surrogate as U+FFFD, which no secret of sent text holds. */
function encodeUtf8(code: number, out: Uint8Array): number {
  if (code < 0x80) {
    out[0] = code;
    return 1;
  }
  if (code < 0x800) {
    out[0] = 0xc0 | (code >> 6);
    out[1] = 0x80 | (code & 0x3f);
    return 2;
  }
  if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
  if (code < 0x10000) {
    out[0] = 0xe0 | (code >> 12);
    out[1] = 0x80 | ((code >> 6) & 0x3f);
    out[2] = 0x80 | (code & 0x3f);
    return 3;
  }
  out[0] = 0xf0 | (code >> 18);
  out[1] = 0x80 | ((code >> 12) & 0x3f);
  out[2] = 0x80 | ((code >> 6) & 0x3f);
  out[3] = 0x80 | (code & 0x3f);
  return 4;
}

/**
 * The secrets in play, shared by the log and every API client: the stored key, and a key being checked before it is
 * stored (a server may echo either). A secret once added stays masked for the session; that costs nothing.
 */
export class SecretMask {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    if (secret && secret.length >= MIN_SECRET_LENGTH) this.secrets.add(secret);
  }

  /** The fixed forms only (`maskForms`): it runs on every log line, and server text was masked fully on its way in. */
  mask(text: string): string {
    return this.secrets.size ? maskForms(text, this.secrets) : text;
  }

  values(): Iterable<string> {
    return this.secrets.values();
  }
}
