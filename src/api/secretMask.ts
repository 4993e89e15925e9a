// Masking "ab" everywhere would garble every text and hide nothing of value.
const MIN_SECRET_LENGTH = 4;
const MASK = '***';

// Base64's full groups too, as in a Basic-auth echo of `key:`.
function forms(secret: string): string[] {
  const all = new Set([secret]);
  for (const encoded of [uriEncoded(secret), new URLSearchParams({ s: secret }).toString().slice(2)]) {
    all.add(encoded).add(encoded.replace(/%[\dA-F]{2}/g, (hex) => hex.toLowerCase()));
  }
  const bytes = Buffer.from(secret);
  const base64 = bytes.toString('base64');
  all.add(base64);
  if (bytes.length >= 6) all.add(base64.slice(0, Math.floor(bytes.length / 3) * 4));
  return [...all].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

function uriEncoded(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return secret;
  }
}

/**
 * Longest first: a secret that holds another (a key rotated by appending) is masked whole. Then, with `escaped`, a
 * secret written with JSON's escapes (all or some of its characters: `\u0073k_…`, `\/`, as PHP, Python, Go or .NET
 * write it): off for a whole answer about to be parsed and for its strings once decoded (a step per backslash).
 */
export function maskSecrets(text: string, secrets: Iterable<string>, escaped = true): string {
  const sorted = [...secrets].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of sorted) {
    for (const form of forms(secret)) {
      if (out.includes(form)) out = out.split(form).join(MASK);
    }
  }
  return escaped && out.includes('\\') ? maskEscaped(out, sorted) : out;
}

const ESCAPE = /\\(?:u[\da-fA-F]{4}|["\\/bfnrt])/y;

// Reads the text as its escapes decode; each secret found hides its span. A step per backslash, not per character.
function maskEscaped(text: string, secrets: readonly string[]): string {
  const parts: string[] = [];
  // How far ahead in the text each decoded character begins.
  const ahead = new Int32Array(text.length + 1);
  let length = 0;
  for (let from = 0; ;) {
    const i = text.indexOf('\\', from);
    const end = i < 0 ? text.length : i;
    parts.push(text.slice(from, end));
    ahead.fill(from - length, length, (length += end - from) + 1);
    if (i < 0) break;
    ESCAPE.lastIndex = i;
    const escape = ESCAPE.exec(text)?.[0];
    parts.push(escape ? (JSON.parse(`"${escape}"`) as string) : '\\');
    ahead[length] = i - length++;
    from = i + (escape?.length ?? 1);
  }
  const decoded = parts.join('');
  const hidden = new Uint8Array(text.length + 1);
  for (const secret of secrets) {
    for (let at = decoded.indexOf(secret); at >= 0; at = decoded.indexOf(secret, at + 1)) {
      const end = at + secret.length;
      hidden.fill(1, at + (ahead[at] as number), end + (ahead[end] as number));
    }
  }
  let out = '';
  for (let i = 0, next = 0; i < text.length; i = next) {
    next = hidden[i] ? hidden.indexOf(0, i) : Math.min(hidden.indexOf(1, i) >>> 0, text.length);
    out += hidden[i] ? MASK : text.slice(i, next);
  }
  return out;
}

// One once added stays masked while the extension runs.
export class SecretMask {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    if (secret && secret.length >= MIN_SECRET_LENGTH) this.secrets.add(secret);
  }

  mask(text: string): string {
    return this.secrets.size ? maskSecrets(text, this.secrets) : text;
  }

  values(): Iterable<string> {
    return this.secrets.values();
  }
}

/**
 * Masks the secrets in a parsed answer's strings and names, in place: an escape such as `\u0073k_…` hides a key from
 * the text mask and is decoded by parsing. Depth is the parser's bound.
 */
export function maskParsed(value: unknown, secrets: readonly string[]): unknown {
  const kept = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  const text = (s: string): string => (kept.some((secret) => s.includes(secret)) ? maskSecrets(s, kept, false) : s);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      const name = text(key);
      const inner = walk(o[key]);
      if (name === key && inner === o[key]) continue;
      if (name !== key) delete o[key];
      // Not `o[name] =`: a member named __proto__ would set the prototype.
      Object.defineProperty(o, name, { value: inner, enumerable: true, writable: true, configurable: true });
    }
    return o;
  };
  return kept.length ? walk(value) : value;
}
