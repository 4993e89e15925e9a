/**
 * Every renewal of every order within the forecast's days, in date order, in bounded time: each order is a sequence
 * (its first date, then one cycle after another), and a heap hands out the earliest next renewal of all sequences, so
 * the work is (renewals listed) × log(orders) and stops at a bound, never at the end of 100,000 hourly orders.
 *
 * Cycle arithmetic: months and years are anchored on the first date's day of the month (31 Jan, 28 Feb, 31 Mar; a
 * 29 Feb yearly renewal falls on 28 Feb in other years). A date without a time is stepped as a calendar day in the
 * user's zone; an instant is stepped in UTC, as servers compute them, and then placed on the user's calendar.
 */

import { type CycleUnit } from '../api/models';
import {
  DAY_MS,
  LAST_DAY,
  MAX_YEAR,
  type ZoneOffset,
  addMonths,
  civilFromDays,
  dayOfInstant,
  daysFromCivil,
  daysInMonth,
  startOfDay,
} from '../util/calendar';

export interface Sequence {
  /** The first renewal: a day of the user's calendar, or an instant. */
  readonly day?: number;
  readonly at?: number;
  /** Undefined: only the first renewal is known. */
  readonly cycle?: { readonly unit: CycleUnit; readonly count: number };
}

export interface Occurrence {
  readonly day: number;
  readonly at?: number;
}

const HOUR_MS = 3_600_000;
const UNIT_DAYS: Readonly<Record<'day' | 'week', number>> = { day: 1, week: 7 };
/** The heap key is day × 2^30 + sequence index: ordered by day, then by the order's place in its list. */
const SLOT_BITS = 2 ** 30;

function inCalendar(day: number): boolean {
  return day >= 0 && day <= LAST_DAY;
}

/** The k-th renewal of a sequence (k = 0 is the first), undefined past the last day this calendar holds. */
export function occurrence(seq: Sequence, k: number, zone: ZoneOffset): Occurrence | undefined {
  const { cycle } = seq;
  if (seq.at === undefined) {
    const first = seq.day as number;
    if (k === 0 || !cycle) return k === 0 ? { day: first } : undefined;
    const steps = k * cycle.count;
    if (cycle.unit === 'hour') {
      const at = startOfDay(first, zone) + steps * HOUR_MS;
      const day = dayOfInstant(at, zone);
      return inCalendar(day) ? { day, at } : undefined;
    }
    const day =
      cycle.unit === 'month' || cycle.unit === 'year'
        ? addMonths(first, cycle.unit === 'year' ? steps * 12 : steps, civilFromDays(first).day)
        : first + steps * UNIT_DAYS[cycle.unit];
    return day !== undefined && inCalendar(day) ? { day } : undefined;
  }
  let at = seq.at;
  if (k > 0 && cycle) {
    const steps = k * cycle.count;
    if (cycle.unit === 'month' || cycle.unit === 'year') {
      const utcDay = Math.floor(seq.at / DAY_MS);
      const moved = addMonths(utcDay, cycle.unit === 'year' ? steps * 12 : steps, civilFromDays(utcDay).day);
      if (moved === undefined) return undefined;
      at = moved * DAY_MS + (seq.at - utcDay * DAY_MS);
    } else {
      at += steps * (cycle.unit === 'hour' ? HOUR_MS : UNIT_DAYS[cycle.unit] * DAY_MS);
    }
  } else if (k > 0) {
    return undefined;
  }
  const day = dayOfInstant(at, zone);
  return inCalendar(day) ? { day, at } : undefined;
}

/** A binary min-heap of numbers in a typed array: no object per entry. */
class KeyHeap {
  private readonly keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(1, capacity));
  }

  push(key: number): void {
    const { keys } = this;
    let i = this.size++;
    keys[i] = key;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((keys[parent] as number) <= key) break;
      keys[i] = keys[parent] as number;
      keys[parent] = key;
      i = parent;
    }
  }

  peek(): number {
    return this.keys[0] as number;
  }

  /** The key at a place of the heap's array (in no particular order). */
  keyAt(place: number): number {
    return this.keys[place] as number;
  }

  pop(): number {
    const { keys } = this;
    const top = keys[0] as number;
    const last = keys[--this.size] as number;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && (keys[right] as number) < (keys[left] as number) ? right : left;
      if ((keys[child] as number) >= last) break;
      keys[i] = keys[child] as number;
      i = child;
    }
    keys[i] = last;
    return top;
  }
}

/**
 * The renewals listed, in date order, as parallel typed arrays (tens of thousands of them: no object each, and
 * nothing for the garbage collector to copy while the forecast is made). Entry `i` is
 * renewal `k[i]` of sequence `seq[i]` (0: the date the server sent; later ones projected) on `day[i]`, at the
 * instant `at[i]` when the sequence has instants (NaN otherwise).
 */
export interface Schedule {
  readonly seq: Int32Array;
  readonly k: Int32Array;
  readonly day: Int32Array;
  readonly at: Float64Array;
  /** The last day listed in full: `end`, or earlier when a bound stopped the listing. */
  readonly lastDay: number;
  readonly cut: boolean;
}

/**
 * The renewals of all sequences from `from` to `end` (days), in date order; at most `perSequence` per sequence and
 * `total` in all. When a bound stops the listing, the last day listed is the day before the first renewal left out,
 * so every day up to it is complete.
 */
export function schedule(
  seqs: readonly Sequence[],
  from: number,
  end: number,
  zone: ZoneOffset,
  limits: { readonly perSequence: number; readonly total: number },
  /** 'heap' skips the sorted listing (tests compare the two). */
  method: 'auto' | 'heap' = 'auto',
): Schedule {
  const heap = new KeyHeap(seqs.length);
  const step = new Int32Array(seqs.length);
  /** The instant of each sequence's next renewal, so it is worked out once. */
  const pendingAt = new Float64Array(seqs.length);
  // Monthly and yearly days, the usual case, are stepped here without objects: the month index of the first renewal
  // (year × 12 + month - 1), its day of the month, and the months per cycle (0: stepped by `occurrence`).
  const baseMonth = new Int32Array(seqs.length);
  const anchor = new Int8Array(seqs.length);
  const monthsPerCycle = new Int32Array(seqs.length);
  for (let i = 0; i < seqs.length && i < SLOT_BITS; i++) {
    const seq = seqs[i] as Sequence;
    const first = seq.at === undefined ? { day: seq.day as number } : occurrence(seq, 0, zone);
    if (!first || first.day < from || first.day > end) continue;
    pendingAt[i] = first.at ?? Number.NaN;
    const unit = seq.cycle?.unit;
    if (seq.at === undefined && seq.cycle && (unit === 'month' || unit === 'year')) {
      const civil = civilFromDays(first.day);
      baseMonth[i] = civil.year * 12 + civil.month - 1;
      anchor[i] = civil.day;
      monthsPerCycle[i] = seq.cycle.count * (unit === 'year' ? 12 : 1);
    }
    heap.push(first.day * SLOT_BITS + i);
  }
  /** The day of a sequence's k-th renewal, or -1 past the calendar. */
  const dayOf = (index: number, k: number): number => {
    const months = monthsPerCycle[index] as number;
    if (months === 0) return occurrence(seqs[index] as Sequence, k, zone)?.day ?? -1;
    const monthIndex = (baseMonth[index] as number) + k * months;
    const year = Math.floor(monthIndex / 12);
    const month = (monthIndex % 12) + 1;
    if (year > MAX_YEAR) return -1;
    return daysFromCivil(year, month, Math.min(anchor[index] as number, daysInMonth(year, month)));
  };
  const nextOf = (index: number, k: number): Occurrence | undefined => {
    if (monthsPerCycle[index] === 0) return occurrence(seqs[index] as Sequence, k, zone);
    const day = dayOf(index, k);
    return day < 0 ? undefined : { day };
  };
  const sorted = method === 'auto' ? bySort(seqs, heap, end, limits, dayOf, zone) : undefined;
  if (sorted) return sorted;
  const out = { seq: [] as number[], k: [] as number[], day: [] as number[], at: [] as number[] };
  let lastDay = end;
  let cut = false;
  while (heap.size > 0) {
    const key = heap.peek();
    const day = Math.floor(key / SLOT_BITS);
    if (day > lastDay) break;
    if (out.seq.length >= limits.total) {
      lastDay = day - 1;
      cut = true;
      break;
    }
    heap.pop();
    const index = key - day * SLOT_BITS;
    const k = step[index] as number;
    out.seq.push(index);
    out.k.push(k);
    out.day.push(day);
    out.at.push(pendingAt[index] as number);
    const next = nextOf(index, k + 1);
    if (!next || next.day > lastDay) continue;
    if (k + 1 >= limits.perSequence) {
      lastDay = next.day - 1;
      cut = true;
      continue;
    }
    step[index] = k + 1;
    pendingAt[index] = next.at ?? Number.NaN;
    // A cycle shorter than the zone's clock change can land on the same day again: never go back in time.
    heap.push(Math.max(next.day, day) * SLOT_BITS + index);
  }
  let kept = out.day.length;
  while (kept > 0 && (out.day[kept - 1] as number) > lastDay) kept--;
  if (kept < out.day.length) for (const list of [out.seq, out.k, out.day, out.at]) list.length = kept;
  return {
    seq: Int32Array.from(out.seq),
    k: Int32Array.from(out.k),
    day: Int32Array.from(out.day),
    at: Float64Array.from(out.at),
    lastDay,
    cut,
  };
}

/** Days a listing by buckets may span; beyond (an invoice owed for years, only), the keys are sorted instead. */
const MAX_BUCKET_DAYS = 1 << 16;

/**
 * The usual case without the heap: when every sequence's renewals fit the bounds, they are all worked out, sequence by
 * sequence in list order, and placed by day in one counting pass (a day's renewals stay in list order, as the heap
 * gives them), which is linear where a sort of 30,000 keys was most of the listing's time. Undefined when a bound
 * would stop the listing: the heap then finds where.
 */
function bySort(
  seqs: readonly Sequence[],
  heap: KeyHeap,
  end: number,
  limits: { readonly perSequence: number; readonly total: number },
  dayOf: (index: number, k: number) => number,
  zone: ZoneOffset,
): Schedule | undefined {
  const firstDay = new Int32Array(seqs.length).fill(-1);
  let minDay = end;
  for (let h = 0; h < heap.size; h++) {
    const first = heap.keyAt(h);
    const day = Math.floor(first / SLOT_BITS);
    firstDay[first - day * SLOT_BITS] = day;
    if (day < minDay) minDay = day;
  }
  if (end - minDay >= MAX_BUCKET_DAYS) return sortedKeys(seqs, heap, end, limits, dayOf, zone);
  const perDay = new Int32Array(end - minDay + 2);
  let days: Int32Array = new Int32Array(Math.max(16, heap.size * 4));
  let owners: Int32Array = new Int32Array(days.length);
  let steps: Int32Array = new Int32Array(days.length);
  let count = 0;
  for (let index = 0; index < seqs.length; index++) {
    let next = firstDay[index] as number;
    for (let k = 0; next >= 0 && next <= end; k++) {
      if (k >= limits.perSequence || count >= limits.total) return undefined;
      if (count === days.length) {
        const size = Math.min(limits.total, days.length * 2);
        days = grown(days, size);
        owners = grown(owners, size);
        steps = grown(steps, size);
      }
      days[count] = next;
      owners[count] = index;
      steps[count++] = k;
      (perDay[next - minDay + 1] as number)++;
      next = dayOf(index, k + 1);
    }
  }
  for (let d = 1; d < perDay.length; d++) perDay[d] = (perDay[d] as number) + (perDay[d - 1] as number);
  const out = {
    seq: new Int32Array(count),
    k: new Int32Array(count),
    day: new Int32Array(count),
    at: new Float64Array(count).fill(Number.NaN),
  };
  for (let i = 0; i < count; i++) {
    const day = days[i] as number;
    const place = (perDay[day - minDay] as number)++;
    const index = owners[i] as number;
    const k = steps[i] as number;
    out.seq[place] = index;
    out.k[place] = k;
    out.day[place] = day;
    const seq = seqs[index] as Sequence;
    if (seq.at !== undefined || seq.cycle?.unit === 'hour') out.at[place] = occurrence(seq, k, zone)?.at ?? Number.NaN;
  }
  return { ...out, lastDay: end, cut: false };
}

function grown(list: Int32Array, size: number): Int32Array {
  const bigger = new Int32Array(size);
  bigger.set(list);
  return bigger;
}

/** `bySort` for renewals spread over too many days to place by day: their keys are sorted. */
function sortedKeys(
  seqs: readonly Sequence[],
  heap: KeyHeap,
  end: number,
  limits: { readonly perSequence: number; readonly total: number },
  dayOf: (index: number, k: number) => number,
  zone: ZoneOffset,
): Schedule | undefined {
  let keys = new Float64Array(Math.max(16, heap.size * 4));
  let count = 0;
  for (let h = 0; h < heap.size; h++) {
    const first = heap.keyAt(h);
    const day = Math.floor(first / SLOT_BITS);
    const index = first - day * SLOT_BITS;
    let next = day;
    for (let k = 0; next >= 0 && next <= end; k++) {
      if (k >= limits.perSequence || count >= limits.total) return undefined;
      if (count === keys.length) {
        const grown = new Float64Array(Math.min(limits.total, keys.length * 2));
        grown.set(keys);
        keys = grown;
      }
      keys[count++] = next * SLOT_BITS + index;
      next = dayOf(index, k + 1);
    }
  }
  const order = keys.subarray(0, count).sort();
  const seen = new Int32Array(seqs.length);
  const out = {
    seq: new Int32Array(count),
    k: new Int32Array(count),
    day: new Int32Array(count),
    at: new Float64Array(count),
  };
  for (let i = 0; i < count; i++) {
    const key = order[i] as number;
    const day = Math.floor(key / SLOT_BITS);
    const index = key - day * SLOT_BITS;
    const k = seen[index] as number;
    seen[index] = k + 1;
    const seq = seqs[index] as Sequence;
    out.seq[i] = index;
    out.k[i] = k;
    out.day[i] = day;
    out.at[i] =
      seq.at === undefined && seq.cycle?.unit !== 'hour' ? Number.NaN : (occurrence(seq, k, zone)?.at ?? Number.NaN);
  }
  return { ...out, lastDay: end, cut: false };
}
