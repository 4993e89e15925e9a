import { type StoreDeps, type ApiClientLike } from './types';

/** The API client for the configured server, built on first use and rebuilt when the server changes. */
export class ApiConnection {
  private client?: ApiClientLike;
  private clientBaseUrl?: string;

  constructor(private readonly deps: Pick<StoreDeps, 'createClient' | 'getKey' | 'settings'>) {}

  /** The base URL the current client talks to, if one was built. */
  get baseUrl(): string | undefined {
    return this.clientBaseUrl;
  }

  get current(): ApiClientLike | undefined {
    return this.client;
  }

  api(): ApiClientLike {
    const { baseUrl } = this.deps.settings();
    if (!this.client || this.clientBaseUrl !== baseUrl) {
      this.dispose();
      this.client = this.create(this.deps.getKey);
      this.clientBaseUrl = baseUrl;
    }
    return this.client;
  }

  /** A client of its own for one key, e.g. to check a key before it is stored. */
  create(getKey: () => Promise<string | undefined> | string | undefined): ApiClientLike {
    const settings = this.deps.settings();
    const timeout = settings.requestTimeoutMs;
    return this.deps.createClient({
      baseUrl: settings.baseUrl,
      getKey,
      requestsPerMinute: settings.requestsPerMinute,
      timeouts: { headersMs: timeout, bodyMs: timeout, totalMs: timeout * 2, connectMs: Math.min(10_000, timeout) },
    });
  }

  dispose(): void {
    const client = this.client;
    this.client = undefined;
    this.clientBaseUrl = undefined;
    if (client) void client.dispose().catch(() => undefined);
  }
}
