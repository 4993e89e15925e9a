import { type Invoice, type InvoiceStatus } from '../models';
import { readDate, dayIn } from './dates';
import { AMOUNT_SCALE, currencyField, findMoney } from './money';
import { type FieldMap, pointed } from './pointers';
import {
  type FieldTrace,
  type Names,
  type Scope,
  asText,
  find,
  findText,
  names,
  pathOf,
  wordTable,
  words,
} from './read';
import { missingId, unexpectedBody } from './unreadable';
import { type ListKind, type ListPage, MAX_LIST_ENTRIES, entryId, readList, unwrapObject } from './wrappers';
import { optional } from '../../util/serverText';
import { type ZoneOffset, dayOfInstant, dayText, parseDayText, systemZone } from '../../util/calendar';

/** A uuid before an `invoice_id`, which is often the number printed on the PDF. */
export const INVOICE_ID_FIELDS = names(
  'id identifier uuid invoice_uuid invoice_id invoiceId number invoice_number invoice_num',
);
const NUMBER_FIELDS = names('invoice_num invoice_number number invoice_no no reference ref invoice_id label name');
const DATE_FIELDS = names('date issued_at issue_date created_at created invoice_date issued date_created');
const DUE_FIELDS = names('due_date due_at dueDate due payment_due expires_at due_on');
const AMOUNT_FIELDS = names(
  'amount total amount_due sum amount_total total_amount grand_total price value total_cents amount_cents amount_minor',
);
const URL_FIELDS = names('url link href pdf pdf_url download_url view_url html_url invoice_url');
const STATUS_FIELDS = names('status state payment_status paid is_paid');
const WRAPPERS = names('data invoice result response');
export const INVOICE_LIST: ListKind = {
  expected: 'invoiceList',
  keys: words('invoices bills billing_invoices'),
  idFields: INVOICE_ID_FIELDS,
};
const MAX_URL = 2048;

const WORD_TO_STATUS = wordTable<Exclude<InvoiceStatus, 'unknown'>>({
  paid: 'paid settled complete completed closed success succeeded true',
  unpaid:
    'unpaid open due pending issued outstanding awaiting_payment sent draft false not_paid partially_paid ' +
    'payment_pending partial unpaid_due posted payment_due',
  overdue: 'overdue past_due late expired collections uncollectible',
  cancelled: 'cancelled canceled void voided refunded credited written_off',
});

/** Only web links: anything else (javascript:, file:, command:) must never reach openExternal. */
function webLink(text: string | undefined): string | undefined {
  if (!text || text.length > MAX_URL) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A `paid` flag is read as a word; an unpaid invoice past its due date is overdue. */
function readStatus(
  scopes: readonly Scope[],
  dueDate: string | undefined,
  now: number,
  zone: ZoneOffset,
  trace?: FieldTrace,
): { status: InvoiceStatus; statusText?: string } {
  let text: string | undefined;
  const hit = find(scopes, STATUS_FIELDS, {
    stateToo: true,
    accept: (v) => (text = typeof v === 'boolean' ? (v ? 'paid' : 'unpaid') : asText(v)) !== undefined,
  });
  if (hit) trace?.use('status', pathOf(hit));
  const word =
    text && text.length <= 64
      ? text
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_')
      : '';
  let status: InvoiceStatus = WORD_TO_STATUS.get(word) ?? 'unknown';
  const due = dueDate === undefined ? undefined : parseDayText(dueDate);
  if (status === 'unpaid' && due !== undefined && due < dayOfInstant(now, zone)) status = 'overdue';
  return { status, statusText: text && text.length > 200 ? text.slice(0, 200) : text };
}

export function normaliseInvoice(
  value: unknown,
  now = Date.now(),
  trace?: FieldTrace,
  zone: ZoneOffset = systemZone,
  map?: FieldMap,
): Invoice {
  const entry = unwrapObject(value, WRAPPERS, INVOICE_ID_FIELDS);
  if (!entry) throw unexpectedBody('invoice', value);
  const { scopes, raw } = entry;
  const found = entryId(entry, INVOICE_ID_FIELDS, 'invoice');
  if (!found) throw missingId('invoice');
  trace?.use('id', found.path);
  // A number is shown only when it is not the id again, and only if it has a digit ("Invoice" is a label).
  const mappedNumber = asText(pointed(map, 'invoiceNumber', raw)?.value);
  const number = mappedNumber === undefined ? findText(scopes, NUMBER_FIELDS, found.key) : undefined;
  const shown = number && /\d/.test(number.text) && number.text.length <= 100 ? number : undefined;
  if (shown) trace?.use('number', pathOf(shown.hit));
  const day = (table: Names, role: string): string | undefined => {
    const found = findText(scopes, table);
    const date = readDate(found?.text);
    if (found && date) trace?.use(role, pathOf(found.hit));
    return date && dayText(dayIn(date, zone));
  };
  const dueDate = day(DUE_FIELDS, 'due');
  const { status, statusText } = readStatus(scopes, dueDate, now, zone, trace);
  const currency = currencyField(scopes);
  const mappedAmount = pointed(map, 'invoiceAmount', raw)?.value;
  const money = findMoney(scopes, AMOUNT_FIELDS, mappedAmount, currency?.code, map?.amountScale === 'minor');
  if (money) trace?.use('amount', pathOf(money.hit));
  if (currency) trace?.use('currency', currency.path);
  const url = findText(scopes, URL_FIELDS);
  return {
    id: found.id,
    number: optional(mappedNumber ?? shown?.text),
    date: optional(day(DATE_FIELDS, 'date')),
    dueDate: optional(dueDate),
    amount: money && money.units / AMOUNT_SCALE,
    currency: money?.currency ?? currency?.code,
    statusText: optional(statusText),
    status,
    url: webLink(url?.text),
    raw,
  };
}

export function readInvoicePage(
  body: unknown,
  now: number,
  limit: number,
  trace?: FieldTrace,
  map?: FieldMap,
): ListPage<Invoice> {
  const read = (entry: unknown, t?: FieldTrace): Invoice => normaliseInvoice(entry, now, t, systemZone, map);
  return readList(body, INVOICE_LIST, read, map, trace, limit);
}

export function normaliseInvoiceList(
  body: unknown,
  now = Date.now(),
  trace?: FieldTrace,
  map?: FieldMap,
): { invoices: Invoice[]; ids: string[]; skipped: number } {
  const { items, ids, skipped } = readInvoicePage(body, now, MAX_LIST_ENTRIES, trace, map);
  return { invoices: items, ids, skipped };
}
