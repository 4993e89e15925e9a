import { type ApiClientOptions, type RequestLogEntry } from './clientOptions';
import { maskSecrets } from './secretMask';

export class ClientReports {
  constructor(
    private readonly options: Pick<ApiClientOptions, 'onRequest' | 'onWarning' | 'onNote' | 'secrets'>,
    private readonly route: () => string,
  ) {}

  secrets(key: string): string[] {
    return [key, ...(this.options.secrets?.() ?? [])];
  }

  mask(text: string): string {
    return maskSecrets(text, this.options.secrets?.() ?? []);
  }

  note(message: string): void {
    this.safely(() => this.options.onNote?.(this.mask(message)));
  }

  warn(message: string): void {
    this.safely(() => this.options.onWarning?.(this.mask(message)));
  }

  request(entry: RequestLogEntry, secrets?: readonly string[]): void {
    this.safely(() => {
      // The path may come from a server's next-page link.
      const mask = (text: string): string => maskSecrets(text, secrets ?? [...(this.options.secrets?.() ?? [])]);
      this.options.onRequest?.({
        ...entry,
        path: mask(entry.path),
        error: entry.error === undefined ? undefined : mask(entry.error),
        route: this.route(),
      });
    });
  }

  private safely(report: () => void): void {
    try {
      report();
    } catch {
      // A logging failure must never fail a request.
    }
  }
}
