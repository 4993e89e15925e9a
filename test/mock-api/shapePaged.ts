// The 'paged' dialect: a PHP/Laravel length-aware paginator around billing-panel style records (service_id,
// domainstatus, invoice_num). `next_page_url` is always null, as some panels emit it, so a client can only reach
// page N+1 by counting `current_page` up to `last_page` and asking for `?page=N` itself.
import { type Page, type Rendered } from './shapes';
import {
  type AccountRecord,
  type BalanceRecord,
  type InvoiceRecord,
  type InvoiceStatus,
  type OrderRecord,
  type OrderStatus,
} from './types';

/** Without an explicit pageSize this shape still paginates, so demos and e2e always walk several pages. */
export const PAGED_DEFAULT_PAGE_SIZE = 2;

// The billing status and the power state are separate fields, as in hosting panels; transitions show only in power.
const DOMAIN_STATUS: Record<OrderStatus, string> = {
  running: 'Active',
  stopped: 'Active',
  suspended: 'Suspended',
  starting: 'Active',
  stopping: 'Active',
  restarting: 'Active',
  reinstalling: 'Active',
};

const POWER_STATE: Record<OrderStatus, string> = {
  running: 'online',
  stopped: 'offline',
  suspended: 'offline',
  starting: 'booting',
  stopping: 'stopping',
  restarting: 'booting',
  reinstalling: 'installing',
};

// Panels of this kind have no "Overdue" status: an overdue invoice is Unpaid with a past duedate.
const INVOICE_STATUS: Record<InvoiceStatus, string> = {
  paid: 'Paid',
  unpaid: 'Unpaid',
  overdue: 'Unpaid',
  cancelled: 'Cancelled',
};

const money = (n: number): string => n.toFixed(2);
const day = (iso: string): string => iso.slice(0, 10);

export function pagedOrder(o: OrderRecord): Record<string, unknown> {
  return {
    service_id: o.id,
    label: o.name,
    domainstatus: DOMAIN_STATUS[o.status],
    power_state: POWER_STATE[o.status],
    dedicated_ip: o.ip,
    product: o.plan,
    location: o.location,
    os: o.os,
    cpu: o.cpu,
    ram_gb: o.ram_gb,
    disk_gb: o.disk_gb,
    regdate: day(o.created_at),
    nextduedate: day(o.renews_at),
    recurringamount: money(o.price_monthly),
    currency_code: o.currency,
  };
}

export function pagedInvoice(inv: InvoiceRecord, url: string): Record<string, unknown> {
  return {
    id: inv.id,
    invoice_num: inv.number,
    date: inv.date,
    duedate: inv.due_date,
    total: money(inv.amount),
    currency_code: inv.currency,
    status: INVOICE_STATUS[inv.status],
    url,
  };
}

export function pagedList(page: Page<unknown>): Rendered {
  const path = page.selfUrl ?? '';
  const perPage = page.paging?.perPage ?? Math.max(page.total, 1);
  const current = page.paging?.page ?? 1;
  const lastPage = Math.max(1, Math.ceil(page.total / perPage));
  const from = page.items.length === 0 ? null : (current - 1) * perPage + 1;
  const to = from === null ? null : from + page.items.length - 1;
  const url = (n: number): string => `${path}?page=${n}`;
  return {
    status: 200,
    body: {
      current_page: current,
      data: page.items,
      first_page_url: url(1),
      from,
      last_page: lastPage,
      last_page_url: url(lastPage),
      next_page_url: null,
      path,
      per_page: perPage,
      prev_page_url: current > 1 ? url(current - 1) : null,
      to,
      total: page.total,
    },
  };
}

export function pagedAccount(a: AccountRecord): Rendered {
  const space = a.name.indexOf(' ');
  const [first, last] = space === -1 ? [a.name, ''] : [a.name.slice(0, space), a.name.slice(space + 1)];
  return {
    status: 200,
    body: {
      data: {
        client_id: a.id,
        firstname: first,
        lastname: last,
        fullname: a.name,
        companyname: a.company,
        email: a.email,
        datecreated: day(a.created_at),
        status: 'Active',
      },
    },
  };
}

export function pagedBalance(b: BalanceRecord): Rendered {
  return { status: 200, body: { data: { credit_balance: b.balance, currency_code: b.currency } } };
}

export const PAGED_ACTION_ACCEPTED: Rendered = { status: 200, body: { result: 'success' } };
