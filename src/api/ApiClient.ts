import { type BaseUrl, encodePathSegment, parseBaseUrl } from './baseUrl';
import { type Clock, sleep, systemClock } from './clock';
import { ApiError, cancelledError, isApiError } from './errors';
import { keyId } from './keyId';
import { LimiterRegistry } from './limiterRegistry';
import {
  type Account, type ActionResult, type Balance, type Invoice, type Listing, type Order, ORDER_ACTIONS, type OrderAction,
} from './models';
import { normaliseAccount } from './normalize/account';
import { normaliseBalance } from './normalize/balance';
import { normaliseInvoiceList } from './normalize/invoice';
import { normaliseOrder, normaliseOrderList } from './normalize/order';
import { isObject, textField } from './normalize/read';
import { nextPagePath, readPageInfo } from './pagination';
import { type RateLimiter, type RateLimitStatus, type RequestPriority } from './RateLimiter';
import { DEFAULT_RETRY, retryDelay, type RetryPolicy } from './retry';
import { SharedRequests } from './SharedRequests';
import { interpret, parseRateLimitReset, parseRetryAfter } from './response';
import { type NetworkSettings } from './network/settings';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUTS, type Timeouts, Transport, type TransportResponse } from './transport';

/** One line per HTTP attempt, for the output channel. Never carries the key. */
export interface RequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly durationMs: number;
  readonly attempt: number;
  readonly bytes?: number;
  readonly requestId?: string;
  readonly error?: string;
  readonly retryInMs?: number;
  /** `direct` or `proxy host:port`: never the proxy's credentials. */
  readonly route?: string;
}


export interface ApiClientOptions {
  readonly baseUrl: string;
  readonly getKey: () => Promise<string | undefined> | string | undefined;
  /** e.g. `hosting-account-vscode/0.1.0`. */
  readonly userAgent: string;
  readonly timeouts?: Partial<Timeouts>;
  readonly maxResponseBytes?: number;
  /** Requests per rolling minute for this key; the API allows 120. */
  readonly requestsPerMinute?: number;
  readonly limiters?: LimiterRegistry;
  readonly clock?: Clock;
  readonly retry?: Partial<RetryPolicy>;
  /** Pages followed at most when a list is paginated. */
  readonly maxPages?: number;
  readonly onRequest?: (entry: RequestLogEntry) => void;
  /** Something worth a line in the log that is not a request: a bound that stopped a list, an odd answer. */
  readonly onWarning?: (message: string) => void;
  /** Jitter source, replaceable for deterministic tests. */
  readonly random?: () => number;
  /** Proxy and certificate settings (VS Code's `http.*`); none means direct, with Node's certificates. */
  readonly network?: NetworkSettings;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /** User-initiated calls overtake queued background refreshes. */
  readonly priority?: RequestPriority;
}

interface RawResponse {
  readonly json: unknown;
  readonly headers: TransportResponse['headers'];
  readonly bytes: number;
}


/** The window the limiter uses: a second longer than the server's minute, so latency cannot make it count 121. */
const LIMITER_WINDOW_MS = 61_000;
const sharedLimiters = new LimiterRegistry(LIMITER_WINDOW_MS);

export class ApiClient {
  readonly baseUrl: BaseUrl;
  private readonly transport: Transport;
  private readonly limiters: LimiterRegistry;
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly reads = new SharedRequests<RawResponse>();
  private lastLimiter?: RateLimiter;
  private disposed = false;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = parseBaseUrl(options.baseUrl);
    this.transport = new Transport({ ...DEFAULT_TIMEOUTS, ...options.timeouts }, options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      { origin: this.baseUrl.origin, settings: options.network, onWarning: options.onWarning });
    this.limiters = options.limiters ?? sharedLimiters;
    this.clock = options.clock ?? systemClock;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  async getAccount(options?: CallOptions): Promise<Account> {
    return normaliseAccount((await this.get('/api/v1/me', options)).json);
  }

  async listOrders(options?: CallOptions): Promise<Listing<Order>> {
    return this.getList('/api/v1/orders', (body) => normaliseOrderList(body).orders, 'orders', options);
  }

  async getOrder(id: string, options?: CallOptions): Promise<Order> {
    return normaliseOrder((await this.get(`/api/v1/orders/${encodePathSegment(id)}`, options)).json);
  }

  async orderAction(id: string, action: OrderAction, options?: CallOptions): Promise<ActionResult> {
    if (!ORDER_ACTIONS.includes(action)) throw new ApiError('invalidRequest', `Unknown action "${String(action)}".`);
    const path = `/api/v1/orders/${encodePathSegment(id)}/action`;
    const { json } = await this.send('POST', path, JSON.stringify({ action }), { priority: 'user', ...options });
    return readActionResult(json);
  }

  async getBalance(options?: CallOptions): Promise<Balance> {
    return normaliseBalance((await this.get('/api/v1/balance', options)).json);
  }

  async listInvoices(options?: CallOptions): Promise<Listing<Invoice>> {
    return this.getList('/api/v1/invoices', (body) => normaliseInvoiceList(body, this.clock.now()).invoices, 'invoices', options);
  }

  /** The request budget of the key last used, for the status bar's tooltip. */
  rateLimitStatus(): RateLimitStatus | undefined {
    return this.lastLimiter?.status();
  }

  /** Takes no new requests; the ones under way finish. */
  async close(): Promise<void> {
    this.disposed = true;
    await this.transport.close();
  }

  /** Takes no new requests and abandons the ones under way. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.reads.abortAll();
    await this.transport.destroy();
  }

  /**
   * Reads a list over all its pages, within bounds: at most `maxPages` pages, the response size cap over all of them
   * together, no page twice, and never a page outside the API. When a bound stops the walk the listing says so.
   */
  private async getList<T>(
    firstPath: string,
    normalise: (body: unknown) => readonly T[],
    what: string,
    options?: CallOptions,
  ): Promise<Listing<T>> {
    const items: T[] = [];
    const seen = new Set<string>();
    const maxPages = this.options.maxPages ?? 50;
    const maxBytes = this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    let bytes = 0;
    let total: number | undefined;
    let path: string | undefined = firstPath;
    for (let pages = 0; path !== undefined; pages++) {
      if (pages >= maxPages) return this.stopped(items, total, 'pageLimit', what);
      if (bytes >= maxBytes) return this.stopped(items, total, 'sizeLimit', what);
      seen.add(path);
      const response: RawResponse = await this.get(path, options);
      bytes += response.bytes;
      for (const item of normalise(response.json)) items.push(item);
      const info = readPageInfo(response.json, response.headers.link);
      total ??= info.total;
      if (!info.next) break;
      const next = nextPagePath(this.baseUrl, info.next, path);
      if (next === undefined) return this.stopped(items, total, 'outsideApi', what);
      if (seen.has(next)) return this.stopped(items, total, 'cycle', what);
      path = next;
    }
    return { items, total: total !== undefined && total > items.length ? total : undefined };
  }

  private stopped<T>(items: T[], total: number | undefined, stoppedBy: NonNullable<Listing<T>['stoppedBy']>, what: string): Listing<T> {
    this.options.onWarning?.(`${what}: stopped reading pages after ${items.length} entries (${stoppedBy})`);
    return { items, total: total !== undefined && total > items.length ? total : undefined, stoppedBy };
  }

  /** GETs are coalesced: concurrent identical reads (same key, same path) share one request. */
  private async get(path: string, options: CallOptions = {}): Promise<RawResponse> {
    const key = await this.requireKey();
    const id = `${keyId(key)}:${path}`;
    return this.reads.run(id, (signal) => this.send('GET', path, undefined, { ...options, signal }, key), options.signal);
  }

  private async requireKey(): Promise<string> {
    const key = await this.options.getKey();
    if (!key) throw new ApiError('unauthorized', 'No API key is set.', { code: 'no_key' });
    return key;
  }

  private async send(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    options: CallOptions,
    knownKey?: string,
  ): Promise<RawResponse> {
    if (this.disposed) throw new ApiError('cancelled', 'The client was closed.');
    const key = knownKey ?? (await this.requireKey());
    const limiter = this.limiters.get(key, this.options.requestsPerMinute ?? 100);
    this.lastLimiter = limiter;
    const headers: Record<string, string> = {
      authorization: `Bearer ${key}`,
      accept: 'application/json',
      'user-agent': this.options.userAgent,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const fullPath = this.baseUrl.pathPrefix + path;
    const context = { method, path, key };

    for (let attempt = 1; ; attempt++) {
      const permit = await limiter.acquire({ signal: options.signal, priority: options.priority });
      const started = this.clock.now();
      let response: TransportResponse | undefined;
      try {
        try {
          // A POST may be abandoned while it waits for its turn, never once sent: the outcome must be known.
          const signal = method === 'GET' ? options.signal : undefined;
          const lane = options.priority === 'user' ? 'user' : 'background';
          response = await this.transport.send({ origin: this.baseUrl.origin, method, path: fullPath, headers, body, signal, lane });
        } finally {
          permit.release();
        }
        this.observeLimits(limiter, response);
        const json = interpret(response, context, this.clock.now());
        this.log({ method, path, status: response.status, durationMs: this.clock.now() - started, attempt, bytes: response.bytes, requestId: response.headers['x-request-id'] });
        return { json, headers: response.headers, bytes: response.bytes };
      } catch (caught) {
        const error = isApiError(caught) ? caught : new ApiError('badResponse', 'The response could not be read.', { cause: caught });
        const retryInMs = this.disposed ? undefined : retryDelay(this.retry, method, error, attempt, this.options.random);
        this.log({
          method, path, status: response?.status, durationMs: this.clock.now() - started, attempt,
          requestId: response?.headers['x-request-id'], error: `${error.kind}: ${error.message}`, retryInMs,
        });
        if (retryInMs === undefined) throw withRequest(error, method, path, response);
        await sleep(this.clock, retryInMs, options.signal).catch(() => {
          throw cancelledError();
        });
      }
    }
  }

  private observeLimits(limiter: RateLimiter, response: TransportResponse): void {
    const now = this.clock.now();
    const remaining = Number(response.headers['x-ratelimit-remaining']);
    const resetAt = parseRateLimitReset(response.headers['x-ratelimit-reset'], now);
    if (response.headers['x-ratelimit-remaining'] !== undefined && Number.isFinite(remaining) && resetAt !== undefined) {
      limiter.observeServer(remaining, resetAt);
    }
    if (response.status === 429 || response.status === 503) {
      const wait = parseRetryAfter(response.headers['retry-after'], now) ?? (response.status === 429 ? 5_000 : 0);
      if (wait > 0) limiter.holdUntil(now + wait);
    }
  }

  private log(entry: RequestLogEntry): void {
    try {
      this.options.onRequest?.({ ...entry, route: this.transport.route });
    } catch {
      // A logging failure must never fail a request.
    }
  }
}

function withRequest(error: ApiError, method: string, path: string, response?: TransportResponse): ApiError {
  if (error.method && error.path) return error;
  return new ApiError(error.kind, error.message, {
    status: error.status ?? response?.status, code: error.code, serverMessage: error.serverMessage, method, path,
    requestId: error.requestId ?? response?.headers['x-request-id'], retryAfterMs: error.retryAfterMs,
    maybeSent: error.maybeSent, transportCode: error.transportCode, tls: error.tls, proxy: error.proxy, cause: error,
  });
}


function readActionResult(json: unknown): ActionResult {
  if (!isObject(json)) return {};
  let order: Order | undefined;
  for (const candidate of [json.order, json.data, json.server, json]) {
    try {
      if (isObject(candidate)) {
        order = normaliseOrder(candidate);
        break;
      }
    } catch {
      // Not an order: many servers answer an action with a job or a plain message.
    }
  }
  return { order, message: textField(json, ['message', 'detail', 'status_message']) };
}
