/** Shorter secrets are not masked: masking "ab" everywhere would garble every text and hide nothing of value. */
const MIN_SECRET_LENGTH = 4;
const MASK = '***';

/** The forms a secret may take when a server echoes it: as sent, URI-encoded, JSON-escaped, base64. */
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

/** Replaces every form of each secret in `text`. Linear in the text for each form. */
export function maskSecrets(text: string, secrets: Iterable<string>): string {
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
 * The secrets in play, shared by the log and every API client: the stored key, and a key being checked before it is
 * stored (a server may echo either). A secret once added stays masked for the session; that costs nothing.
 */
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
