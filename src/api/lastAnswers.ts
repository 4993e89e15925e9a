import { maskSecrets } from './secretMask';

export type AnswerKind = 'me' | 'orders' | 'order' | 'action' | 'balance' | 'invoices';

/** What the server last sent for one endpoint: masked, cut, in memory only. */
export interface LastAnswer {
  readonly kind: AnswerKind;
  readonly method: 'GET' | 'POST';
  /** Below the base URL, masked: a next-page link comes from the server. */
  readonly path: string;
  readonly status: number;
  readonly at: number;
  /** The body as text, at most MAX_ANSWER_TEXT characters. */
  readonly text: string;
  readonly cut: boolean;
  /** The JSON read from it (2xx only), with every array cut to SAMPLE_ENTRIES: enough to preview a field map. */
  readonly sample?: unknown;
}

export const MAX_ANSWER_TEXT = 256 * 1024;
export const SAMPLE_ENTRIES = 20;
/** Values copied into one sample at most: a deep answer of short arrays stays small too. */
const SAMPLE_NODES = 20_000;

/** The start of a body with every secret masked, including one the cut would have split. */
export function maskedHead(body: string, secrets: readonly string[]): { text: string; cut: boolean } {
  if (body.length <= MAX_ANSWER_TEXT) return { text: maskSecrets(body, secrets), cut: false };
  const room = 6 * Math.max(0, ...secrets.map((secret) => secret.length));
  return { text: maskSecrets(body.slice(0, MAX_ANSWER_TEXT + room), secrets).slice(0, MAX_ANSWER_TEXT), cut: true };
}

/** A copy of parsed JSON with arrays cut, and nothing past the node budget (replaced by null). */
export function sampleOf(value: unknown): unknown {
  let budget = SAMPLE_NODES;
  const copy = (node: unknown): unknown => {
    if (--budget < 0) return null;
    if (Array.isArray(node)) return node.slice(0, SAMPLE_ENTRIES).map(copy);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node)) {
      Object.defineProperty(out, key, {
        value: copy((node as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return copy(value);
}

export class LastAnswers {
  private readonly answers = new Map<AnswerKind, LastAnswer>();

  note(answer: LastAnswer): void {
    this.answers.set(answer.kind, answer);
  }

  get(kind: AnswerKind): LastAnswer | undefined {
    return this.answers.get(kind);
  }

  clear(): void {
    this.answers.clear();
  }
}
