import type * as vscode from 'vscode';
// A type only: erased from the bundle, so the log does not pull the API code into activation.
import type { RequestLogEntry } from './api/ApiClient';

/**
 * The extension's output channel, tagged per component. Every line passes through the masks, so even a key that
 * slipped into an error text is never written out.
 */
export class Log {
  constructor(
    private readonly channel: vscode.LogOutputChannel,
    private readonly tag = '',
    private readonly secrets = new Map<string, readonly string[]>(),
  ) {}

  /** A logger that prefixes its lines with `[tag]` and shares this one's masks. */
  scoped(tag: string): Log {
    return new Log(this.channel, tag, this.secrets);
  }

  /** Registers the key, which must never be written; `undefined` clears the previous one. */
  setSecret(secret: string | undefined): void {
    this.setSecrets('key', secret ? [secret] : []);
  }

  /** Registers a group of values that must never be written (e.g. `proxy` credentials), replacing that group's. */
  setSecrets(group: string, secrets: readonly string[]): void {
    this.secrets.set(group, secrets.filter((secret) => secret.length >= 4));
  }

  mask(text: string): string {
    let out = text;
    // Longest first, so a value that contains another is masked whole.
    const all = [...this.secrets.values()].flat().sort((a, b) => b.length - a.length);
    for (const secret of all) out = out.split(secret).join('***');
    return out;
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

  private format(message: string): string {
    return this.mask(this.tag ? `[${this.tag}] ${message}` : message);
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
