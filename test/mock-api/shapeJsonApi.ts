// The 'jsonapi' dialect: JSON:API resource documents (string ids, attributes, links), as providers built on JSON:API
// frameworks answer. Pagination uses `page[number]` and is found only through `links.next`.
import { type Page, type Rendered } from './shapes';
import {
  type AccountRecord,
  type BalanceRecord,
  type InvoiceRecord,
  type InvoiceStatus,
  type OrderRecord,
  type OrderStatus,
} from './types';

/** Real JSON:API servers label documents with the registered media type, not application/json. */
export const JSONAPI_TYPE = 'application/vnd.api+json';

const STATUS: Record<OrderStatus, string> = {
  running: 'active',
  stopped: 'powered_off',
  suspended: 'suspended',
  starting: 'powering_on',
  stopping: 'powering_off',
  restarting: 'rebooting',
  reinstalling: 'rebuilding',
};

const INVOICE_STATUS: Record<InvoiceStatus, string> = {
  paid: 'Paid',
  unpaid: 'Unpaid',
  overdue: 'Overdue',
  cancelled: 'Cancelled',
};

const money = (n: number): string => n.toFixed(2);

export function jsonApiOrder(o: OrderRecord, baseUrl: string): Record<string, unknown> {
  const id = String(o.id);
  return {
    type: 'orders',
    id,
    attributes: {
      name: o.name,
      status: STATUS[o.status],
      ip_address: o.ip,
      plan: o.plan,
      region: o.location,
      operating_system: o.os,
      vcpus: o.cpu,
      memory_mb: o.ram_gb * 1024,
      disk_gb: o.disk_gb,
      created_at: o.created_at,
      renews_at: o.renews_at,
      recurring_amount: money(o.price_monthly),
      currency: o.currency,
    },
    links: { self: `${baseUrl}/api/v1/orders/${encodeURIComponent(id)}` },
  };
}

export function jsonApiInvoice(inv: InvoiceRecord, url: string): Record<string, unknown> {
  return {
    type: 'invoices',
    id: String(inv.id),
    attributes: {
      invoice_number: inv.number,
      issue_date: inv.date,
      due_date: inv.due_date,
      total: money(inv.amount),
      currency: inv.currency,
      status: INVOICE_STATUS[inv.status],
    },
    // The provider's web view of the invoice; there is no API endpoint for a single invoice.
    links: { self: url },
  };
}

export function jsonApiList(page: Page<unknown>): Rendered {
  const meta = page.paging
    ? { total: page.total, page: { number: page.paging.page, size: page.paging.perPage } }
    : { total: page.total };
  const links = { self: page.selfUrl ?? null, next: page.paging?.next ?? null };
  return { status: 200, contentType: JSONAPI_TYPE, body: { data: page.items, meta, links } };
}

export function jsonApiDocument(data: unknown, meta?: Record<string, unknown>, status = 200): Rendered {
  return { status, contentType: JSONAPI_TYPE, body: meta === undefined ? { data } : { data, meta } };
}

export function jsonApiAccount(a: AccountRecord, baseUrl: string): Rendered {
  const space = a.name.indexOf(' ');
  const [first, last] = space === -1 ? [a.name, ''] : [a.name.slice(0, space), a.name.slice(space + 1)];
  return jsonApiDocument({
    type: 'users',
    id: String(a.id),
    attributes: {
      first_name: first,
      last_name: last,
      email: a.email,
      company: a.company,
      created_at: a.created_at,
      tier: a.tier,
    },
    links: { self: `${baseUrl}/api/v1/me` },
  });
}

export function jsonApiBalance(b: BalanceRecord): Rendered {
  return jsonApiDocument({ type: 'balances', id: '1', attributes: { amount: money(b.balance), currency: b.currency } });
}

/** `page[size]` is echoed like real servers do, but the server keeps its own page size. */
export function jsonApiPageUrl(listUrl: string, page: number, perPage: number): string {
  return `${listUrl}?page[number]=${page}&page[size]=${perPage}`;
}
