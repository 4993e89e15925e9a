import { type RequestLogEntry } from '../api/ApiClient';
import { type FieldMap } from '../api/normalise/pointers';
import { type ApiClientLike, type StoreDeps } from './types';

export class ApiConnection {
  private client?: ApiClientLike;
  private clientBaseUrl?: string;
  private clientMap?: FieldMap;

  constructor(
    private readonly deps: Pick<StoreDeps, 'createClient' | 'getKey' | 'settings'>,
    private readonly onRequest: (entry: RequestLogEntry) => void,
  ) {}

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

  /** The requests under way finish on the old client. */
  retire(): void {
    const client = this.client;
    this.client = undefined;
    client?.close().catch(() => undefined);
  }

  abandon(): void {
    const client = this.client;
    this.client = undefined;
    this.clientBaseUrl = undefined;
    client?.dispose().catch(() => undefined);
  }
}
