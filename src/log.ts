import type * as vscode from 'vscode';
// A type only: erased from the bundle, so the log does not pull the API code into activation.
import type { RequestLogEntry } from './api/ApiClient';
import { SecretMask } from './api/secretMask';
import { clean } from './util/cleanText';

const MAX_LINE = 4_000;

export class Log {
  constructor(
    private readonly channel: vscode.LogOutputChannel,
    private readonly tag = '',
    private readonly secrets = new SecretMask(),
  ) {}

  scoped(tag: string): Log {
    return new Log(this.channel, tag, this.secrets);
  }

  // Masked while the extension runs: an old key echoed late by a server is still hidden.
  setSecret(secret: string | undefined): void {
    this.secrets.add(secret);
  }

  setSecrets(_group: string, secrets: readonly string[]): void {
    for (const secret of secrets) this.secrets.add(secret);
  }

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

  // Server text in a message can neither forge a line of its own nor hide or reorder what the line says.
  private format(message: string): string {
    return clean(this.mask(this.tag ? `[${this.tag}] ${message}` : message), MAX_LINE);
  }
}

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
