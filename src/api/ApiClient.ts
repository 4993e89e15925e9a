import { type BaseUrl, encodePathSegment } from './baseUrl';
import { type ApiClientOptions, type CallOptions } from './clientOptions';
import { ApiError } from './errors';
import { FieldLog } from './fieldLog';
import { type AnswerKind, type LastAnswer } from './lastAnswers';
import { readAllPages, yieldIfLarge } from './listPages';
import {
  type Account,
  type ActionResult,
  type Balance,
  type Invoice,
  type Listing,
  type Order,
  ORDER_ACTIONS,
  type OrderAction,
} from './models';
import { normaliseAccount } from './normalise/account';
import { normaliseBalance } from './normalise/balance';
import { readInvoicePage } from './normalise/invoice';
import { normaliseOrder, readOrderPage } from './normalise/order';
import { type FieldTrace } from './normalise/read';
import { maskReason } from './normalise/unreadable';
import { type ListPage, MAX_LIST_ENTRIES } from './normalise/wrappers';
import { type RateLimitStatus } from './RateLimiter';
import { readActionResult } from './actionResult';
import { asApiError, RequestPipeline } from './RequestPipeline';
import { DEFAULT_MAX_RESPONSE_BYTES } from './transport';

export type { ApiClientOptions, CallOptions, RequestLogEntry } from './clientOptions';
export type { AnswerKind, LastAnswer } from './lastAnswers';

/** The endpoints of the API, each read through its normaliser; how requests travel is `RequestPipeline`'s. */
export class ApiClient {
  readonly baseUrl: BaseUrl;
  private readonly requests: RequestPipeline;
  private readonly fields: FieldLog;

  constructor(private readonly options: ApiClientOptions) {
    this.requests = new RequestPipeline(options);
    this.baseUrl = this.requests.baseUrl;
    this.fields = new FieldLog((line) => this.requests.reports.note(line));
  }

  async getAccount(options?: CallOptions): Promise<Account> {
    return this.read('/api/v1/me', 'me', normaliseAccount, options);
  }

  async listOrders(options?: CallOptions): Promise<Listing<Order>> {
    const map = this.options.fieldMap;
    return this.getList(
      '/api/v1/orders',
      (body, limit, trace) => readOrderPage(body, limit, trace, map),
      'orders',
      options,
    );
  }

  async getOrder(id: string, options?: CallOptions): Promise<Order> {
    const map = this.options.fieldMap;
    return this.read(
      `/api/v1/orders/${encodePathSegment(id)}`,
      'order',
      (body, trace) => normaliseOrder(body, trace, map, id),
      options,
    );
  }

  async orderAction(id: string, action: OrderAction, options?: CallOptions): Promise<ActionResult> {
    if (!ORDER_ACTIONS.includes(action)) {
      throw new ApiError('invalidRequest', `Unknown action "${String(action)}".`, {
        reason: { rule: 'unknownAction', action: String(action) },
      });
    }
    const path = `/api/v1/orders/${encodePathSegment(id)}/action`;
    const { json } = await this.requests.post(path, JSON.stringify({ action }), { priority: 'user', ...options });
    return readActionResult(json);
  }

  async getBalance(options?: CallOptions): Promise<Balance> {
    const map = this.options.fieldMap;
    return this.read('/api/v1/balance', 'balance', (body, trace) => normaliseBalance(body, trace, map), options);
  }

  async listInvoices(options?: CallOptions): Promise<Listing<Invoice>> {
    return this.getList(
      '/api/v1/invoices',
      (body, limit, trace) => readInvoicePage(body, this.requests.clock.now(), limit, trace, this.options.fieldMap),
      'invoices',
      options,
    );
  }

  /** What the server last sent for an endpoint (masked, cut, in memory only), for a user who asks. */
  lastAnswer(kind: AnswerKind): LastAnswer | undefined {
    return this.requests.answers.get(kind);
  }

  /** Forgets the answers kept: they belonged to another key. */
  forgetAnswers(): void {
    this.requests.answers.clear();
  }

  /** The request budget of the key last used, for the status bar's tooltip. */
  rateLimitStatus(): RateLimitStatus | undefined {
    return this.requests.rateLimitStatus();
  }

  /** Takes no new requests; the ones under way finish. */
  close(): Promise<void> {
    return this.requests.close();
  }

  /** Takes no new requests and abandons the ones under way. */
  dispose(): Promise<void> {
    return this.requests.dispose();
  }

  /**
   * A list over all its pages, within bounds (see readAllPages); each page read like any other GET, and no more than
   * MAX_LIST_ENTRIES entries over all of them: the listing says how many more there were.
   */
  private async getList<T>(
    firstPath: string,
    normalise: (body: unknown, limit: number, trace?: FieldTrace) => ListPage<T>,
    what: 'orders' | 'invoices',
    options?: CallOptions,
  ): Promise<Listing<T>> {
    let read = 0;
    let skipped = 0;
    let omitted = 0;
    const ids: string[] = [];
    const listing = await readAllPages(firstPath, what, {
      baseUrl: this.baseUrl,
      maxPages: this.options.maxPages ?? 50,
      maxBytes: this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      get: (path) => this.requests.get(path, options, what),
      parse: (path, response) => {
        const fields = this.fields.trace(what);
        const page = this.guard(path, () => normalise(response.json, MAX_LIST_ENTRIES - read, fields?.trace));
        fields?.done();
        read += page.items.length + page.ids.length;
        skipped += page.skipped;
        omitted += page.omitted;
        for (const id of page.ids) ids.push(id);
        return page;
      },
      warn: (message) => this.requests.reports.warn(message),
    });
    if (ids.length) this.requests.reports.note(`${what}: the list gave ${ids.length} bare ids`);
    const withIds = ids.length ? { ...listing, ids } : listing;
    if (omitted === 0) return withIds;
    this.requests.reports.warn(`${what}: ${omitted} entries past the first ${MAX_LIST_ENTRIES} were not read`);
    return {
      ...withIds,
      stoppedBy: listing.stoppedBy ?? 'countLimit',
      // A total counted here is only the whole list when the pages ended on their own.
      total: listing.total ?? (listing.stoppedBy === undefined ? read + skipped + omitted : undefined),
    };
  }

  /** One GET read through a normaliser; what the normaliser says of the body is masked like everything else. */
  private async read<T>(
    path: string,
    endpoint: AnswerKind,
    normalise: (body: unknown, trace?: FieldTrace) => T,
    options?: CallOptions,
  ): Promise<T> {
    const response = await this.requests.get(path, options, endpoint);
    await yieldIfLarge(response);
    const fields = this.fields.trace(endpoint === 'me' ? 'account' : endpoint);
    const value = this.guard(path, () => normalise(response.json, fields?.trace));
    fields?.done();
    return value;
  }

  /** Runs a reader of server data: any failure becomes a masked `badResponse` for this path, never a crash. */
  private guard<T>(path: string, readBody: () => T): T {
    try {
      return readBody();
    } catch (caught) {
      throw this.failure(path, caught);
    }
  }

  private failure(path: string, caught: unknown): ApiError {
    const error = asApiError(caught);
    const { reports } = this.requests;
    return error.with(reports.mask(error.message), {
      method: 'GET',
      path: reports.mask(path),
      reason: maskReason(error.reason, (text) => reports.mask(text)),
    });
  }
}
