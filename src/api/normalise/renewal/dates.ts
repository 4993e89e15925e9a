/**
 * Renewal dates as servers write them. A date without a time ("2026-12-03") is a whole day in the user's zone; a
 * timestamp with a zone ("…Z", "…+02:00") or epoch seconds is an instant. A date and time without a zone
 * ("2026-12-03 10:00:00", as WHMCS and Blesta store them) is read as its day: the zone it was meant in is unknown,
 * and a guessed zone would move the day as often as it kept it.
 */

import { type RenewalDate } from '../../models';
import { DAY_MS, FIRST_DAY, LAST_DAY, dayText, digitsAt, parseDayText } from '../../../util/calendar';

/** Longer than any timestamp: a longer text is not a date, and nothing below runs over it. */
const MAX_TEXT = 40;
/** Epoch seconds from 2001-09-09 on, milliseconds from then on as well: smaller numbers are not dates. */
const MIN_SECONDS = 1e9;
const MIN_MS = 1e12;
const LAST_MS = (LAST_DAY + 1) * DAY_MS - 1;

function instant(ms: number): RenewalDate | undefined {
  return Number.isFinite(ms) && ms >= FIRST_DAY * DAY_MS && ms <= LAST_MS ? { kind: 'instant', at: ms } : undefined;
}

function fromEpoch(value: number): RenewalDate | undefined {
  if (!Number.isInteger(value) || value < MIN_SECONDS) return undefined;
  return instant(value >= MIN_MS ? value : value * 1000);
}

/** Minutes east of UTC written after a time: `Z`, `+02:00`, `-0530`, `+02`; undefined for none, NaN for garbage. */
function zoneMinutes(text: string, at: number): number | undefined {
  if (at >= text.length) return undefined;
  const sign = text[at];
  if ((sign === 'Z' || sign === 'z') && at === text.length - 1) return 0;
  if (sign !== '+' && sign !== '-') return Number.NaN;
  const rest = text.length - at - 1;
  const hours = digitsAt(text, at + 1, 2);
  let minutes = 0;
  if (rest === 5 && text[at + 3] === ':') minutes = digitsAt(text, at + 4, 2);
  else if (rest === 4) minutes = digitsAt(text, at + 3, 2);
  else if (rest !== 2) return Number.NaN;
  if (hours < 0 || hours > 18 || minutes < 0 || minutes > 59) return Number.NaN;
  return (sign === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** `YYYY-MM-DD`, then `T` or a space and `HH:MM[:SS[.fraction]]`, then maybe a zone. */
function fromText(raw: string): RenewalDate | undefined {
  const text = raw.trim();
  if (text.length === 0 || text.length > MAX_TEXT) return undefined;
  if (digitsAt(text, 0, text.length) >= 0) return fromEpoch(Number(text));
  const day = parseDayText(text.slice(0, 10));
  if (day === undefined) return undefined;
  if (text.length === 10) return { kind: 'day', day: dayText(day) };
  const sep = text[10];
  if (sep !== 'T' && sep !== 't' && sep !== ' ') return undefined;
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  if (text[13] !== ':' || hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
  let at = 16;
  let second = 0;
  let ms = 0;
  if (text[at] === ':') {
    second = digitsAt(text, at + 1, 2);
    if (second < 0 || second > 59) return undefined;
    at += 3;
    if (text[at] === '.' || text[at] === ',') {
      const start = ++at;
      while (at < text.length && digitsAt(text, at, 1) >= 0) at++;
      if (at === start || at - start > 9) return undefined;
      // Milliseconds are kept; finer digits (Laravel writes microseconds) are dropped.
      ms = digitsAt(text.slice(start, start + 3).padEnd(3, '0'), 0, 3);
    }
  }
  const zone = zoneMinutes(text, at);
  if (Number.isNaN(zone)) return undefined;
  if (zone === undefined) return { kind: 'day', day: dayText(day) };
  return instant(day * DAY_MS + ((hour * 60 + minute - zone) * 60 + second) * 1000 + ms);
}

/** A renewal date from a field's value; `0000-00-00` (never), empty text and anything unreadable are undefined. */
export function readDate(value: unknown): RenewalDate | undefined {
  if (typeof value === 'number') return fromEpoch(value);
  if (typeof value === 'string') return fromText(value);
  return undefined;
}

/** The day of a `YYYY-MM-DD` text, for the values other readers kept (invoice due dates). */
export function readDay(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseDayText(text);
}
