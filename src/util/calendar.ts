// Days since 1970-01-01 without Date objects (H. Hinnant's algorithms): exact in every zone.
export const MIN_YEAR = 1970;
export const MAX_YEAR = 9999;
export const DAY_MS = 86_400_000;
export const LAST_DAY = 2_932_896;

// Minutes east of UTC at an instant: +60 in Paris in winter.
export type ZoneOffset = (epochMs: number) => number;

export const systemZone: ZoneOffset = (epochMs) => -new Date(epochMs).getTimezoneOffset();

export function fixedZone(minutesEast: number): ZoneOffset {
  return () => minutesEast;
}

export interface CivilDay {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

export function civilFromDays(days: number): CivilDay {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function validDay(year: number, month: number, day: number): number | undefined {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return undefined;
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return undefined;
  return day <= daysInMonth(year, month) ? daysFromCivil(year, month, day) : undefined;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

export function dayText(days: number): string {
  const { year, month, day } = civilFromDays(days);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

export function digitsAt(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return -1;
    value = value * 10 + (code - 48);
  }
  return value;
}

export function parseDayText(text: string): number | undefined {
  if (text.length !== 10 || text[4] !== '-' || text[7] !== '-') return undefined;
  return validDay(digitsAt(text, 0, 4), digitsAt(text, 5, 2), digitsAt(text, 8, 2));
}

// Anchored: 31 Jan + 1 month is 28 Feb, + 2 months is 31 Mar.
export function addMonths(days: number, months: number, anchorDay?: number): number | undefined {
  const { year, month, day } = civilFromDays(days);
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  if (y < MIN_YEAR || y > MAX_YEAR) return undefined;
  return daysFromCivil(y, m, Math.min(anchorDay ?? day, daysInMonth(y, m)));
}

export function dayOfInstant(epochMs: number, zone: ZoneOffset): number {
  return Math.floor((epochMs + zone(epochMs) * 60_000) / DAY_MS);
}

// Checked once more at the guess, for a day a clock change falls on.
export function startOfDay(days: number, zone: ZoneOffset): number {
  const utcMidnight = days * DAY_MS;
  const guess = utcMidnight - zone(utcMidnight) * 60_000;
  return utcMidnight - zone(guess) * 60_000;
}
