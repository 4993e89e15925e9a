import type * as vscode from 'vscode';
// A type only: erased from the bundle, so the log does not pull the API code into activation.
import type { RequestLogEntry } from './api/ApiClient';
import { SecretMask } from './api/secretMask';
import { clean } from './util/cleanText';

/** A log line at most, in characters: enough for any request line and error, never a flood. */
const MAX_LINE = 4_000;

/**
 * The extension's output channel, tagged per component. Every line passes through the masks, so even a key that
 * slipped into an error text is never written out.
 */
export class Log {
  constructor(
    private readonly channel: vscode.LogOutputChannel,
    private readonly tag = '',
    private readonly secrets = new SecretMask(),
  ) {}

  /** A logger that prefixes its lines with `[tag]` and shares this one's masks. */
  scoped(tag: string): Log {
    return new Log(this.channel, tag, this.secrets);
  }

  /**
   * Registers a value that must never be written: the stored key, and a key being checked before it is stored. Keys
   * once seen stay masked for the session, so an old key echoed late by a server is still hidden.
   */
  setSecret(secret: string | undefined): void {
    this.secrets.add(secret);
  }

  /** Registers more values that must never be written (e.g. `proxy` credentials); like keys, they stay masked. */
  setSecrets(_group: string, secrets: readonly string[]): void {
    for (const secret of secrets) this.secrets.add(secret);
  }

  /** The secrets registered so far, for the API clients to mask out of all they report. */
  get secretValues(): Iterable<string> {
    return this.secrets.values();
  }

  mask(text: string): string {
    return this.secrets.mask(text);
  }

  debug(message: string): void {
    this.channel.debug(this.format(message));
  }

  info(message: string): void {
    this.channel.info(this.format(message));
  }

  warn(message: string): void {
    this.channel.warn(this.format(message));
  }

  error(message: string | Error): void {
    const text = message instanceof Error ? `${message.name}: ${message.message}` : message;
    this.channel.error(this.format(text));
  }

  show(): void {
    this.channel.show(true);
  }

  /**
   * Masked, then one bounded line without invisible characters: server text in a message (an error's words, a label)
   * can neither forge a line of its own nor hide or reorder what the line says.
   */
  private format(message: string): string {
    return clean(this.mask(this.tag ? `[${this.tag}] ${message}` : message), MAX_LINE);
  }
}

/** `GET /api/v1/orders → 200 in 83 ms (1.2 KB, request id req_1f)`: what support asks for, never the key. */
export function formatRequest(entry: RequestLogEntry): string {
  const parts = [`${entry.method} ${entry.path}`];
  parts.push(entry.status ? `→ ${entry.status}` : '→ no response');
  parts.push(`in ${Math.round(entry.durationMs)} ms`);
  const extra = [
    entry.route === undefined ? undefined : entry.route === 'direct' ? 'direct' : `via ${entry.route}`,
    entry.attempt > 1 ? `attempt ${entry.attempt}` : undefined,
    entry.bytes !== undefined ? `${(entry.bytes / 1024).toFixed(1)} KB` : undefined,
    entry.requestId ? `request id ${entry.requestId}` : undefined,
  ].filter(Boolean);
  if (extra.length) parts.push(`(${extra.join(', ')})`);
  let line = parts.join(' ');
  if (entry.error) line += `: ${entry.error}`;
  if (entry.retryInMs !== undefined) line += `; retrying in ${entry.retryInMs} ms`;
  return line;
}
