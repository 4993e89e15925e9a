/** Invoice status words and flags, and the overdue rule. */

import { type InvoiceStatus, type RawObject } from '../models';
import { type FieldTrace, asText, joinPath, lookup } from './read';
import { type ZoneOffset, dayOfInstant, parseDayText } from '../../util/calendar';

const STATUS_FIELDS = ['status', 'state', 'payment_status', 'paid', 'is_paid'];

const STATUS_WORDS: Readonly<Record<Exclude<InvoiceStatus, 'unknown'>, readonly string[]>> = {
  paid: ['paid', 'settled', 'complete', 'completed', 'closed', 'success', 'succeeded', 'true'],
  unpaid: [
    'unpaid',
    'open',
    'due',
    'pending',
    'issued',
    'outstanding',
    'awaiting_payment',
    'sent',
    'draft',
    'false',
    'not_paid',
    'partially_paid',
    'payment_pending',
    'partial',
    'unpaid_due',
  ],
  overdue: ['overdue', 'past_due', 'late', 'expired', 'collections', 'uncollectible'],
  cancelled: ['cancelled', 'canceled', 'void', 'voided', 'refunded', 'credited', 'written_off'],
};
const WORD_TO_STATUS = new Map<string, InvoiceStatus>(
  Object.entries(STATUS_WORDS).flatMap(([status, words]) => words.map((word) => [word, status as InvoiceStatus])),
);

function normaliseStatus(text: string | undefined): InvoiceStatus {
  if (!text || text.length > 64) return 'unknown';
  return (
    WORD_TO_STATUS.get(
      text
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_'),
    ) ?? 'unknown'
  );
}

export function readInvoiceStatus(
  obj: RawObject,
  base: string,
  dueDate: string | undefined,
  now: number,
  zone: ZoneOffset,
  trace?: FieldTrace,
): { status: InvoiceStatus; statusText?: string } {
  let statusText: string | undefined;
  for (const name of STATUS_FIELDS) {
    const hit = lookup(obj, [name]);
    if (!hit) continue;
    statusText = typeof hit.value === 'boolean' ? (hit.value ? 'paid' : 'unpaid') : asText(hit.value);
    if (statusText === undefined) continue;
    trace?.use('status', joinPath(base, hit.key));
    break;
  }
  let status = normaliseStatus(statusText);
  // Many APIs only say "unpaid"; an unpaid invoice past its due date is overdue all the same.
  const due = dueDate === undefined ? undefined : parseDayText(dueDate);
  if (status === 'unpaid' && due !== undefined && due < dayOfInstant(now, zone)) status = 'overdue';
  return { status, statusText: statusText && statusText.length > 200 ? statusText.slice(0, 200) : statusText };
}
