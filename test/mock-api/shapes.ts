// Output mapping per payload shape. State stays canonical; only what goes on the wire differs, so the client's
// tolerant parsing is exercised against five plausible provider dialects. 'jsonapi' and 'paged' live in their own
// modules.
import { type OutgoingHttpHeaders } from 'node:http';
import {
  jsonApiAccount,
  jsonApiBalance,
  jsonApiDocument,
  jsonApiInvoice,
  jsonApiList,
  jsonApiOrder,
  jsonApiPageUrl,
} from './shapeJsonApi';
import { PAGED_ACTION_ACCEPTED, pagedAccount, pagedBalance, pagedInvoice, pagedList, pagedOrder } from './shapePaged';
import { idsAccount, idsActionAccepted, idsBalance, idsList, idsOrder } from './shapeIds';
import { renewalFields } from './renewals';
import {
  type AccountRecord,
  type ApiShape,
  type BalanceRecord,
  type InvoiceRecord,
  type OrderAction,
  type OrderRecord,
  type OrderStatus,
} from './types';

export interface Page<T> {
  items: T[];
  total: number;
  /** Set only when the server paginates. */
  paging?: { page: number; perPage: number; next: string | null };
  /** Absolute URL of the list without query; the shapes that link to themselves or to other pages need it. */
  selfUrl?: string;
}

export interface Rendered {
  status: number;
  /** undefined = empty body. */
  body: unknown;
  headers?: OutgoingHttpHeaders;
  /** Defaults to JSON; 'jsonapi' uses its own media type. */
  contentType?: string;
}

const BARE_STATE: Record<OrderStatus, string> = {
  running: 'active',
  stopped: 'offline',
  suspended: 'suspended',
  starting: 'pending',
  stopping: 'pending',
  restarting: 'pending',
  reinstalling: 'pending',
};

const ALT_POWER: Record<OrderStatus, string> = {
  running: 'on',
  stopped: 'off',
  suspended: 'suspended',
  starting: 'booting',
  stopping: 'shutting_down',
  restarting: 'rebooting',
  reinstalling: 'installing',
};

// Each dialect reports money in its own currency, as a different provider would.
const BARE_CURRENCY = 'USD';
const ALT_CURRENCY = 'GBP';

const money = (n: number): string => n.toFixed(2);

/**
 * `baseUrl` makes links absolute where a shape has them ('jsonapi'); without it they are root-relative. Renewal dates
 * count from `now`, the mock's clock.
 */
export function renderOrder(shape: ApiShape, o: OrderRecord, baseUrl = '', now = Date.now()): Record<string, unknown> {
  switch (shape) {
    case 'standard':
      return { ...o, ...renewalFields(shape, o, now) };
    case 'bare': {
      const { status, ...rest } = o;
      return { ...rest, id: String(o.id), state: BARE_STATE[status], currency: BARE_CURRENCY };
    }
    case 'alt': {
      const { id, name, status, ...rest } = o;
      return { order_id: id, hostname: name, power_status: ALT_POWER[status], ...rest, currency: ALT_CURRENCY };
    }
    case 'jsonapi':
      return jsonApiOrder(o, baseUrl);
    case 'paged':
      return { ...pagedOrder(o), ...renewalFields(shape, o, now) };
    case 'ids':
      return { ...idsOrder(o), ...renewalFields(shape, o, now) };
  }
}

export function renderInvoice(shape: ApiShape, inv: InvoiceRecord, url: string): Record<string, unknown> {
  switch (shape) {
    case 'standard':
      return { ...inv, url };
    case 'bare':
      return { ...inv, id: String(inv.id), amount: money(inv.amount), currency: BARE_CURRENCY, url };
    case 'alt':
      return {
        invoice_id: inv.id,
        number: inv.number,
        date: inv.date,
        due_date: inv.due_date,
        total: money(inv.amount),
        currency_code: ALT_CURRENCY,
        status: inv.status,
        url,
      };
    case 'jsonapi':
      return jsonApiInvoice(inv, url);
    case 'paged':
      return pagedInvoice(inv, url);
    case 'ids':
      return { billId: inv.id, url };
  }
}

export function renderList(shape: ApiShape, key: 'orders' | 'invoices', page: Page<unknown>): Rendered {
  const next = page.paging?.next ?? null;
  switch (shape) {
    case 'standard': {
      const meta = page.paging
        ? { total: page.total, page: page.paging.page, per_page: page.paging.perPage }
        : { total: page.total };
      return { status: 200, body: { data: page.items, meta, ...(page.paging ? { links: { next } } : {}) } };
    }
    case 'bare':
      return { status: 200, body: page.items, headers: next === null ? {} : { Link: `<${next}>; rel="next"` } };
    case 'alt':
      return { status: 200, body: { [key]: page.items, ...(page.paging ? { next_page_url: next } : {}) } };
    case 'jsonapi':
      return jsonApiList(page);
    case 'paged':
      return pagedList(page);
    case 'ids':
      return idsList(
        page,
        (page.items as Array<Record<string, unknown>>).map((item) => item.serverId ?? item.billId),
      );
  }
}

export function renderSingleOrder(shape: ApiShape, o: OrderRecord, baseUrl = '', now = Date.now()): Rendered {
  const order = renderOrder(shape, o, baseUrl, now);
  switch (shape) {
    case 'standard':
      return { status: 200, body: { data: order } };
    case 'bare':
      return { status: 200, body: order };
    case 'alt':
      return { status: 200, body: { order } };
    case 'jsonapi':
      return jsonApiDocument(order);
    case 'paged':
      return { status: 200, body: { data: order } };
    case 'ids':
      return { status: 200, body: order };
  }
}

export function renderAccount(shape: ApiShape, a: AccountRecord, baseUrl = ''): Rendered {
  switch (shape) {
    case 'standard':
      return { status: 200, body: { ...a } };
    case 'bare':
      return { status: 200, body: { ...a, id: String(a.id) } };
    case 'alt':
      return { status: 200, body: { user: { ...a } } };
    case 'jsonapi':
      return jsonApiAccount(a, baseUrl);
    case 'paged':
      return pagedAccount(a);
    case 'ids':
      return idsAccount(a);
  }
}

export function renderBalance(shape: ApiShape, b: BalanceRecord): Rendered {
  switch (shape) {
    case 'standard':
      return { status: 200, body: { ...b } };
    case 'bare':
      return { status: 200, body: { amount: money(b.balance), currency: BARE_CURRENCY } };
    case 'alt':
      return { status: 200, body: { data: { credit: money(b.balance), currency_code: ALT_CURRENCY } } };
    case 'jsonapi':
      return jsonApiBalance(b);
    case 'paged':
      return pagedBalance(b);
    case 'ids':
      return idsBalance(b);
  }
}

export function renderActionAccepted(
  shape: ApiShape,
  o: OrderRecord,
  action: OrderAction,
  message: string,
  baseUrl = '',
  now = Date.now(),
): Rendered {
  switch (shape) {
    case 'standard':
      return { status: 202, body: { order: renderOrder(shape, o, '', now), action, message } };
    case 'bare':
      return { status: 202, body: renderOrder(shape, o, '', now) };
    case 'alt':
      return { status: 204, body: undefined };
    case 'jsonapi':
      return jsonApiDocument(renderOrder(shape, o, baseUrl, now), { message }, 202);
    case 'paged':
      return PAGED_ACTION_ACCEPTED;
    case 'ids':
      return idsActionAccepted(o);
  }
}

/** The link to page `page` of a list, in the query style of the shape. */
export function pageUrl(shape: ApiShape, listUrl: string, page: number, perPage: number): string {
  return shape === 'jsonapi' ? jsonApiPageUrl(listUrl, page, perPage) : `${listUrl}?page=${page}`;
}

/** The query parameter that selects a page. */
export function pageParam(shape: ApiShape): string {
  return shape === 'jsonapi' ? 'page[number]' : 'page';
}
