import { type RequestLogEntry } from '../api/ApiClient';
import { type FieldMap } from '../api/normalise/pointers';
import { type ApiClientLike, type StoreDeps } from './types';

/** The API client for the configured server: built on first use, rebuilt after the settings change. */
export class ApiConnection {
  private client?: ApiClientLike;
  private clientBaseUrl?: string;
  private clientMap?: FieldMap;

  constructor(
    private readonly deps: Pick<StoreDeps, 'createClient' | 'getKey' | 'settings'>,
    private readonly onRequest: (entry: RequestLogEntry) => void,
  ) {}

  /** The base URL the current client talks to, if one was built. */
  get baseUrl(): string | undefined {
    return this.clientBaseUrl;
  }

  get current(): ApiClientLike | undefined {
    return this.client;
  }

  api(): ApiClientLike {
    const { baseUrl, fieldMap } = this.deps.settings();
    // Another map reads the answers still to come differently; the requests under way finish as they were.
    if (this.client && this.clientBaseUrl === baseUrl && this.clientMap !== fieldMap) this.retire();
    if (!this.client || this.clientBaseUrl !== baseUrl) {
      if (this.client) this.abandon();
      this.client = this.create(this.deps.getKey);
      this.clientBaseUrl = baseUrl;
      this.clientMap = fieldMap;
    }
    return this.client;
  }

  /** A client of its own for one key, e.g. to check a key before it is stored. */
  create(getKey: () => Promise<string | undefined> | string | undefined): ApiClientLike {
    const settings = this.deps.settings();
    const timeout = settings.requestTimeoutMs;
    return this.deps.createClient({
      fieldMap: settings.fieldMap,
      baseUrl: settings.baseUrl,
      getKey,
      requestsPerMinute: settings.requestsPerMinute,
      onRequest: this.onRequest,
      timeouts: { headersMs: timeout, bodyMs: timeout, totalMs: timeout * 2, connectMs: Math.min(10_000, timeout) },
    });
  }

  /** The next request gets a new client; the requests under way finish on this one, which then closes. */
  retire(): void {
    const client = this.client;
    this.client = undefined;
    client?.close().catch(() => undefined);
  }

  /** Abandons the requests under way: they belong to a server or key no longer in use. */
  abandon(): void {
    const client = this.client;
    this.client = undefined;
    this.clientBaseUrl = undefined;
    client?.dispose().catch(() => undefined);
  }
}
