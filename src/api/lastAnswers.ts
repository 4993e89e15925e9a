import { maskSecrets } from './secretMask';

export type AnswerKind = 'me' | 'orders' | 'order' | 'action' | 'balance' | 'invoices';

/** In memory only. */
export interface LastAnswer {
  readonly kind: AnswerKind;
  readonly method: 'GET' | 'POST';
  /** Masked: a next-page link comes from the server. */
  readonly path: string;
  readonly status: number;
  readonly at: number;
  readonly text: string;
  readonly cut: boolean;
  // No parsed copy is kept: it would hold the key.
  readonly parsed: boolean;
}

export const MAX_ANSWER_TEXT = 256 * 1024;

/**
 * A parsed answer is kept as the masked value written again, so that reading it back decodes no escaped key; one
 * too long or unread is kept as its masked text, which is never parsed.
 */
export function lastAnswer(
  seen: Pick<LastAnswer, 'kind' | 'method' | 'path' | 'status' | 'at'>,
  body: string,
  json: unknown,
  secrets: readonly string[],
): LastAnswer {
  const parsed = json !== undefined;
  const head =
    parsed && body.length <= MAX_ANSWER_TEXT ? { text: JSON.stringify(json), cut: false } : maskedHead(body, secrets);
  return { ...seen, parsed, ...head };
}

/** Masks a secret the cut would have split too. */
export function maskedHead(body: string, secrets: readonly string[]): { text: string; cut: boolean } {
  if (body.length <= MAX_ANSWER_TEXT) return { text: maskSecrets(body, secrets), cut: false };
  // The longest masked form of a character is six long (\uXXXX).
  const room = 6 * Math.max(0, ...secrets.map((secret) => secret.length));
  const head = maskSecrets(body.slice(0, MAX_ANSWER_TEXT + room), secrets).slice(0, MAX_ANSWER_TEXT);
  // V8's slice would keep the whole answer alive (megabytes for a long list): a copy keeps only the head.
  return { text: Buffer.from(head, 'utf8').toString('utf8'), cut: true };
}
