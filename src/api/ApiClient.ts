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
    return this.getList('orders', (body, limit, trace) => readOrderPage(body, limit, trace, map), options);
  }

  async getOrder(id: string, options?: CallOptions): Promise<Order> {
    const read = (body: unknown, trace?: FieldTrace): Order => normaliseOrder(body, trace, this.options.fieldMap, id);
    return this.read(`/api/v1/orders/${encodePathSegment(id)}`, 'order', read, options);
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
      'invoices',
      (body, limit, trace) => readInvoicePage(body, this.requests.clock.now(), limit, trace, this.options.fieldMap),
      options,
    );
  }

  lastAnswer(kind: AnswerKind): LastAnswer | undefined {
    return this.requests.answers.get(kind);
  }

  forgetAnswers(): void {
    this.requests.answers.clear();
  }

  rateLimitStatus(): RateLimitStatus | undefined {
    return this.requests.rateLimitStatus();
  }

  /** The requests under way finish. */
  close(): Promise<void> {
    return this.requests.close();
  }

  /** The requests under way are abandoned. */
  dispose(): Promise<void> {
    return this.requests.dispose();
  }

  private async getList<T>(
    what: 'orders' | 'invoices',
    normalise: (body: unknown, limit: number, trace?: FieldTrace) => ListPage<T>,
    options?: CallOptions,
  ): Promise<Listing<T>> {
    let read = 0;
    let skipped = 0;
    let omitted = 0;
    const ids: string[] = [];
    const first = `/api/v1/${what}`;
    const listing = await readAllPages(first, what, {
      baseUrl: this.baseUrl,
      maxPages: this.options.maxPages ?? 50,
      maxBytes: this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      // The first page is the one kept to show and to preview a field map on: a last page may hold nothing.
      get: (path) => this.requests.get(path, options, path === first ? what : undefined),
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

  /** Any failure of a reader becomes a masked error for this path, never a crash. */
  private guard<T>(path: string, readBody: () => T): T {
    try {
      return readBody();
    } catch (caught) {
      const error = asApiError(caught);
      const { reports } = this.requests;
      throw error.with(reports.mask(error.message), {
        method: 'GET',
        path: reports.mask(path),
        reason: maskReason(error.reason, (text) => reports.mask(text)),
      });
    }
  }
}
