import { type RenewalDate } from '../models';
import { DAY_MS, LAST_DAY, type ZoneOffset, dayOfInstant, dayText, parseDayText, validDay } from '../../util/calendar';

const MAX_TEXT = 40;
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)?)?$/i;

function instant(ms: number): RenewalDate | undefined {
  return Number.isFinite(ms) && ms >= 0 && ms < (LAST_DAY + 1) * DAY_MS ? { kind: 'instant', at: ms } : undefined;
}

/** Seconds from 2001 on, or milliseconds: smaller numbers are not dates. */
function fromEpoch(value: number): RenewalDate | undefined {
  if (!Number.isInteger(value) || value < 1e9) return undefined;
  return instant(value >= 1e12 ? value : value * 1000);
}

/** The glossary's Dates; never `new Date(text)`, which reads text in the machine's zone, often as another day. */
export function readDate(value: unknown): RenewalDate | undefined {
  if (typeof value === 'number') return fromEpoch(value);
  if (typeof value !== 'string' || value.length > MAX_TEXT) return undefined;
  const text = value.trim();
  if (text.length === 10 && parseDayText(text) !== undefined) return { kind: 'day', day: text };
  if (/^\d+$/.test(text)) return fromEpoch(Number(text));
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, year, month, date, hour = '0', minute = '0', second = '0', fraction = '', utc, sign, zh, zm = '0'] = m;
  const day = validDay(Number(year), Number(month), Number(date));
  if (day === undefined || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  if (!utc && !sign) return { kind: 'day', day: dayText(day) };
  const zone = (sign === '-' ? -1 : 1) * (Number(zh ?? 0) * 60 + Number(zm));
  if (Number(zh ?? 0) > 18 || Number(zm) > 59) return undefined;
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  return instant(day * DAY_MS + ((Number(hour) * 60 + Number(minute) - zone) * 60 + Number(second)) * 1000 + ms);
}

export function dayIn(date: RenewalDate, zone: ZoneOffset): number {
  return date.kind === 'day' ? (parseDayText(date.day) as number) : dayOfInstant(date.at, zone);
}
