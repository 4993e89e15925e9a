import { type Invoice } from '../models';
import { findId } from './ids';
import { readInvoiceStatus } from './invoiceStatus';
import { readAmountAt, readCurrency } from './money';
import { type FieldTrace, joinPath, lookup, textHit } from './read';
import { type ListPage, readList, unwrapObject } from './wrappers';
import { missingId, unexpectedBody } from './unreadable';
import { optional } from '../../util/serverText';

/** `id` first; a uuid before an `invoice_id`, which is often the number printed on the PDF. */
const ID_FIELDS = [
  'id',
  'identifier',
  'uuid',
  'invoice_uuid',
  'invoice_id',
  'invoiceId',
  'number',
  'invoice_number',
  'invoice_num',
];
const NUMBER_FIELDS = [
  'invoice_num',
  'invoice_number',
  'number',
  'invoice_no',
  'no',
  'reference',
  'ref',
  'invoice_id',
  'label',
  'name',
];
const DATE_FIELDS = [
  'date',
  'issued_at',
  'issue_date',
  'created_at',
  'created',
  'invoice_date',
  'issued',
  'date_created',
];
const DUE_FIELDS = ['due_date', 'due_at', 'dueDate', 'due', 'payment_due', 'expires_at', 'due_on'];
const AMOUNT_FIELDS = [
  'amount',
  'total',
  'amount_due',
  'sum',
  'amount_total',
  'total_amount',
  'grand_total',
  'price',
  'value',
  'total_cents',
  'amount_cents',
  'amount_minor',
];
const URL_FIELDS = ['url', 'link', 'href', 'pdf', 'pdf_url', 'download_url', 'view_url', 'html_url', 'invoice_url'];
const WRAPPERS = ['data', 'invoice', 'result', 'response'];
const LIST_KEYS = ['invoices', 'bills', 'billing_invoices'];
/** Longer than any web link worth opening; a longer text is not parsed. */
const MAX_URL = 2048;

/** Only web links are kept: anything else (javascript:, file:, command:) must never reach openExternal. */
function webLink(text: string | undefined): string | undefined {
  if (!text || text.length > MAX_URL) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A day as the server wrote it: a leading `YYYY-MM-DD` is taken as is (a zone shift must not move an invoice to the
 * day before), epoch seconds are converted; `0000-00-00` means never.
 */
function isoDay(text: string | undefined): string | undefined {
  if (!text || text.length > 64) return undefined;
  const day = text.slice(0, 10);
  if (/^\d{4}-\d{2}-\d{2}$/.test(day)) return day.startsWith('0000') ? undefined : day;
  const seconds = /^\d{9,10}$/.test(text) ? Number(text) : undefined;
  const date = seconds !== undefined ? new Date(seconds * 1000) : new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toISOString().slice(0, 10);
}

function day(
  obj: Readonly<Record<string, unknown>>,
  names: readonly string[],
  role: string,
  base: string,
  trace?: FieldTrace,
): string | undefined {
  const hit = textHit(obj, names);
  const value = isoDay(hit?.text);
  if (hit && value) trace?.use(role, joinPath(base, hit.key));
  return value;
}

export function normaliseInvoice(value: unknown, now = Date.now(), trace?: FieldTrace): Invoice {
  const entry = unwrapObject(value, WRAPPERS, ID_FIELDS);
  if (!entry) throw unexpectedBody('invoice', value);
  const { fields, base } = entry;
  const found = findId(fields, ID_FIELDS, 'invoice', entry.envelope);
  if (!found) throw missingId('invoice');
  trace?.use('id', found.own ? found.hit.key : joinPath(base, found.hit.key));
  // A number is shown only when it is not the id again, and only if it has a digit ("Invoice" is a label, not a number).
  const number = textHit(fields, NUMBER_FIELDS, found.own ? undefined : found.hit.key);
  const shownNumber = number && /\d/.test(number.text) && number.text.length <= 100 ? number : undefined;
  if (shownNumber) trace?.use('number', joinPath(base, shownNumber.key));
  const dueDate = day(fields, DUE_FIELDS, 'due', base, trace);
  const { status, statusText } = readInvoiceStatus(fields, base, dueDate, now, trace);
  let money;
  for (const name of AMOUNT_FIELDS) {
    const hit = lookup(fields, [name]);
    money = hit ? readAmountAt(hit, base, trace) : undefined;
    if (money) break;
  }
  const url = textHit(fields, URL_FIELDS);
  return {
    id: found.id,
    number: optional(shownNumber?.text),
    date: optional(day(fields, DATE_FIELDS, 'date', base, trace)),
    dueDate: optional(dueDate),
    amount: money?.amount,
    currency: readCurrency(fields, base, trace) ?? money?.currency,
    statusText: optional(statusText),
    status,
    url: webLink(url?.text),
    raw: entry.raw,
  };
}

/** `normaliseInvoiceList` for one page of a list read over pages: at most `limit` invoices read. */
export function readInvoicePage(body: unknown, now: number, limit: number, trace?: FieldTrace): ListPage<Invoice> {
  const read = (entry: unknown, t?: FieldTrace): Invoice => normaliseInvoice(entry, now, t);
  return readList(body, LIST_KEYS, ID_FIELDS, 'invoiceList', read, trace, limit);
}

export function normaliseInvoiceList(
  body: unknown,
  now = Date.now(),
  trace?: FieldTrace,
): { invoices: Invoice[]; skipped: number } {
  const read = (entry: unknown, t?: FieldTrace): Invoice => normaliseInvoice(entry, now, t);
  const { items, skipped } = readList(body, LIST_KEYS, ID_FIELDS, 'invoiceList', read, trace);
  return { invoices: items, skipped };
}
