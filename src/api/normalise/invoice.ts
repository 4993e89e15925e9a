import { type Invoice } from '../models';
import { findId } from './ids';
import { readInvoiceStatus } from './invoiceStatus';
import { AMOUNT_SCALE, type UnitsRead, currencyField, fromMinor, readMoneyAt, readUnits } from './money';
import { readDate, dayIn } from './dates';
import { type FieldTrace, asText, bare, joinPath, lookup, textHit } from './read';
import { type ListPage, MAX_LIST_ENTRIES, readList, unwrapObject } from './wrappers';
import { type FieldMap, pointed } from './pointers';
import { missingId, unexpectedBody } from './unreadable';
import { optional } from '../../util/serverText';
import { type ZoneOffset, dayText, systemZone } from '../../util/calendar';

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

/** A date field as the user's calendar day (`YYYY-MM-DD`), read by the one date reader. */
function day(
  obj: Readonly<Record<string, unknown>>,
  names: readonly string[],
  role: string,
  base: string,
  zone: ZoneOffset,
  trace?: FieldTrace,
): string | undefined {
  const hit = textHit(obj, names);
  const date = readDate(hit?.text);
  if (hit && date) trace?.use(role, joinPath(base, hit.key));
  return date && dayText(dayIn(date, zone));
}

export function normaliseInvoice(
  value: unknown,
  now = Date.now(),
  trace?: FieldTrace,
  zone: ZoneOffset = systemZone,
  map?: FieldMap,
): Invoice {
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
  const dueDate = day(fields, DUE_FIELDS, 'due', base, zone, trace);
  const { status, statusText } = readInvoiceStatus(fields, base, dueDate, now, zone, trace);
  const currency = currencyField(fields);
  let money: UnitsRead | undefined;
  for (const name of AMOUNT_FIELDS) {
    const hit = lookup(fields, [name]);
    money = hit && readMoneyAt(fields, hit.key, currency?.code);
    if (hit && money?.units !== undefined) {
      trace?.use('amount', joinPath(base, hit.key));
      break;
    }
  }
  if (currency) trace?.use('currency', joinPath(base, currency.key));
  const url = textHit(fields, URL_FIELDS);
  const mappedNumber = asText(pointed(map, 'invoiceNumber', entry.raw)?.value);
  const mappedAmount = pointed(map, 'invoiceAmount', entry.raw);
  if (mappedAmount && mappedAmount.value !== undefined) {
    const read = readUnits(bare(mappedAmount.value));
    if (read.problem === undefined) money = read;
  }
  if (map?.amountScale === 'minor' && money) money = fromMinor(money, currency?.code);
  return {
    id: found.id,
    number: optional(mappedNumber ?? shownNumber?.text),
    date: optional(day(fields, DATE_FIELDS, 'date', base, zone, trace)),
    dueDate: optional(dueDate),
    amount: money?.units === undefined ? undefined : money.units / AMOUNT_SCALE,
    currency: money?.currency ?? currency?.code,
    statusText: optional(statusText),
    status,
    url: webLink(url?.text),
    raw: entry.raw,
  };
}

/** `normaliseInvoiceList` for one page of a list read over pages: at most `limit` invoices read. */
export function readInvoicePage(
  body: unknown,
  now: number,
  limit: number,
  trace?: FieldTrace,
  map?: FieldMap,
): ListPage<Invoice> {
  const read = (entry: unknown, t?: FieldTrace): Invoice => normaliseInvoice(entry, now, t, systemZone, map);
  return readList(body, LIST_KEYS, ID_FIELDS, 'invoiceList', read, trace, limit, map);
}

export function normaliseInvoiceList(
  body: unknown,
  now = Date.now(),
  trace?: FieldTrace,
  map?: FieldMap,
): { invoices: Invoice[]; skipped: number } {
  const { items, skipped } = readInvoicePage(body, now, MAX_LIST_ENTRIES, trace, map);
  return { invoices: items, skipped };
}
