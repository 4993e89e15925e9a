import { ApiError } from '../errors';
import { type Invoice, type InvoiceStatus } from '../models';
import { asNumber, describe, field, findList, isObject, readEach, textField, unwrapObject } from './read';

const ID_FIELDS = ['id', 'invoice_id', 'invoiceId', 'uuid', 'number', 'invoice_number'];
const NUMBER_FIELDS = ['number', 'invoice_number', 'invoiceNumber', 'no', 'reference', 'ref', 'name'];
const DATE_FIELDS = ['date', 'issued_at', 'issue_date', 'created_at', 'created', 'invoice_date', 'issued'];
const DUE_FIELDS = ['due_date', 'due_at', 'dueDate', 'due', 'payment_due', 'expires_at'];
const AMOUNT_FIELDS = ['amount', 'total', 'sum', 'amount_total', 'total_amount', 'grand_total', 'price', 'value'];
const CURRENCY_FIELDS = ['currency', 'currency_code', 'curr'];
const STATUS_FIELDS = ['status', 'state', 'payment_status', 'paid'];
const URL_FIELDS = ['url', 'link', 'href', 'pdf', 'pdf_url', 'download_url', 'view_url', 'html_url', 'invoice_url'];

const STATUS_WORDS: Readonly<Record<Exclude<InvoiceStatus, 'unknown'>, readonly string[]>> = {
  paid: ['paid', 'settled', 'complete', 'completed', 'closed', 'success', 'succeeded', 'true'],
  unpaid: ['unpaid', 'open', 'due', 'pending', 'issued', 'outstanding', 'awaiting_payment', 'sent', 'draft', 'false',
    'not_paid', 'partially_paid'],
  overdue: ['overdue', 'past_due', 'late', 'expired', 'collections'],
  cancelled: ['cancelled', 'canceled', 'void', 'voided', 'refunded', 'credited'],
};

function normaliseStatus(text: string | undefined): InvoiceStatus {
  if (!text) return 'unknown';
  const key = text.trim().toLowerCase().replace(/[\s-]+/g, '_');
  for (const [status, words] of Object.entries(STATUS_WORDS)) {
    if (words.includes(key)) return status as InvoiceStatus;
  }
  return 'unknown';
}

/** Only web links are kept: anything else (javascript:, file:, command:) must never reach openExternal. */
function webLink(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function isoDay(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const seconds = /^\d{9,10}$/.test(text) ? Number(text) : undefined;
  const date = seconds !== undefined ? new Date(seconds * 1000) : new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toISOString().slice(0, 10);
}

export function normaliseInvoice(value: unknown, now = Date.now()): Invoice {
  const obj = unwrapObject(value, ['data', 'invoice'], ID_FIELDS);
  if (!obj) throw new ApiError('badResponse', `Expected an invoice object, got ${describe(value)}.`);
  const id = textField(obj, ID_FIELDS);
  if (id === undefined) throw new ApiError('badResponse', 'Expected an invoice with an id or number.');
  const rawStatus = field(obj, STATUS_FIELDS);
  const statusText = typeof rawStatus === 'boolean' ? (rawStatus ? 'paid' : 'unpaid') : textField(obj, STATUS_FIELDS);
  let status = normaliseStatus(statusText);
  const dueDate = isoDay(textField(obj, DUE_FIELDS));
  // Many APIs only say "unpaid"; an unpaid invoice past its due date is overdue all the same.
  if (status === 'unpaid' && dueDate && /^\d{4}-\d{2}-\d{2}$/.test(dueDate) && Date.parse(dueDate) + 86_400_000 <= now) {
    status = 'overdue';
  }
  const amountValue = field(obj, AMOUNT_FIELDS);
  return {
    id,
    number: textField(obj, NUMBER_FIELDS),
    date: isoDay(textField(obj, DATE_FIELDS)),
    dueDate,
    amount: asNumber(isObject(amountValue) ? field(amountValue, ['amount', 'value']) : amountValue),
    currency: textField(obj, CURRENCY_FIELDS)?.toUpperCase() ??
      (isObject(amountValue) ? textField(amountValue, CURRENCY_FIELDS)?.toUpperCase() : undefined),
    statusText,
    status,
    url: webLink(textField(obj, URL_FIELDS)),
    raw: obj,
  };
}

export function normaliseInvoiceList(body: unknown, now = Date.now()): { invoices: Invoice[]; skipped: number } {
  const list = findList(body, ['invoices', 'bills']);
  if (!list) {
    throw new ApiError('badResponse', `Expected a list of invoices (an array, or one under "data"/"invoices"), got ${describe(body)}.`);
  }
  const { items, skipped } = readEach(list, (entry) => normaliseInvoice(entry, now));
  return { invoices: items, skipped };
}
