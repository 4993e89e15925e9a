import { type Invoice, type InvoiceStatus } from '../models';
import { readDate, dayIn } from './dates';
import { AMOUNT_SCALE, type UnitsRead, currencyField, readMoneyAt } from './money';
import { type FieldMap, pointed } from './pointers';
import { type FieldTrace, type Names, Scope, asText, find, findText, names, pathOf, words } from './read';
import { missingId, unexpectedBody } from './unreadable';
import { type ListPage, MAX_LIST_ENTRIES, entryId, readList, unwrapObject } from './wrappers';
import { optional } from '../../util/serverText';
import { type ZoneOffset, dayOfInstant, dayText, parseDayText, systemZone } from '../../util/calendar';

/** `id` first; a uuid before an `invoice_id`, which is often the number printed on the PDF. */
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
export const INVOICE_LIST_KEYS = words('invoices bills billing_invoices');
/** Longer than any web link worth opening; a longer text is not parsed. */
const MAX_URL = 2048;

const STATUS_WORDS: Readonly<Record<Exclude<InvoiceStatus, 'unknown'>, string>> = {
  paid: 'paid settled complete completed closed success succeeded true',
  unpaid:
    'unpaid open due pending issued outstanding awaiting_payment sent draft false not_paid partially_paid ' +
    'payment_pending partial unpaid_due posted payment_due',
  overdue: 'overdue past_due late expired collections uncollectible',
  cancelled: 'cancelled canceled void voided refunded credited written_off',
};
const WORD_TO_STATUS = new Map<string, InvoiceStatus>(
  Object.entries(STATUS_WORDS).flatMap(([status, list]) => words(list).map((w) => [w, status as InvoiceStatus])),
);

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

/** A date field as the user's calendar day (`YYYY-MM-DD`), read by the one date reader. */
function day(
  scopes: readonly Scope[],
  table: Names,
  role: string,
  zone: ZoneOffset,
  trace?: FieldTrace,
): string | undefined {
  const found = findText(scopes, table);
  const date = readDate(found?.text);
  if (found && date) trace?.use(role, pathOf(found.hit));
  return date && dayText(dayIn(date, zone));
}

/** The status word (a `paid` flag read as one), and overdue for an unpaid invoice past its due date. */
function readStatus(
  scopes: readonly Scope[],
  dueDate: string | undefined,
  now: number,
  zone: ZoneOffset,
  trace?: FieldTrace,
): { status: InvoiceStatus; statusText?: string } {
  let statusText: string | undefined;
  const hit = find(scopes, STATUS_FIELDS, {
    stateToo: true,
    accept: (v) => (statusText = typeof v === 'boolean' ? (v ? 'paid' : 'unpaid') : asText(v)) !== undefined,
  });
  if (hit) trace?.use('status', pathOf(hit));
  const word =
    statusText && statusText.length <= 64
      ? statusText
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_')
      : '';
  let status = WORD_TO_STATUS.get(word) ?? 'unknown';
  const due = dueDate === undefined ? undefined : parseDayText(dueDate);
  if (status === 'unpaid' && due !== undefined && due < dayOfInstant(now, zone)) status = 'overdue';
  return { status, statusText: statusText && statusText.length > 200 ? statusText.slice(0, 200) : statusText };
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
  const dueDate = day(scopes, DUE_FIELDS, 'due', zone, trace);
  const { status, statusText } = readStatus(scopes, dueDate, now, zone, trace);
  const currency = currencyField(scopes);
  const minor = map?.amountScale === 'minor';
  const mappedAmount = pointed(map, 'invoiceAmount', raw);
  const amountScopes = mappedAmount?.value !== undefined ? [new Scope({ value: mappedAmount.value }, 'map')] : scopes;
  let money: UnitsRead | undefined;
  const amount = find(amountScopes, mappedAmount?.value !== undefined ? names('value') : AMOUNT_FIELDS, {
    accept: (_, key, scope) => (money = readMoneyAt(scope.obj, key, currency?.code, minor)).units !== undefined,
  });
  if (amount) trace?.use('amount', pathOf(amount));
  if (currency) trace?.use('currency', currency.path);
  const url = findText(scopes, URL_FIELDS);
  return {
    id: found.id,
    number: optional(mappedNumber ?? shown?.text),
    date: optional(day(scopes, DATE_FIELDS, 'date', zone, trace)),
    dueDate: optional(dueDate),
    amount: money?.units === undefined ? undefined : money.units / AMOUNT_SCALE,
    currency: money?.currency ?? currency?.code,
    statusText: optional(statusText),
    status,
    url: webLink(url?.text),
    raw,
  };
}

/** `normaliseInvoiceList` for one page of a list read over pages: at most `limit` invoices read, bare ids apart. */
export function readInvoicePage(
  body: unknown,
  now: number,
  limit: number,
  trace?: FieldTrace,
  map?: FieldMap,
): ListPage<Invoice> {
  const read = (entry: unknown, t?: FieldTrace): Invoice => normaliseInvoice(entry, now, t, systemZone, map);
  return readList(
    body,
    { preferred: INVOICE_LIST_KEYS, idFields: INVOICE_ID_FIELDS, expected: 'invoiceList', read, map },
    trace,
    limit,
  );
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
