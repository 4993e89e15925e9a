import { AMOUNT_SCALE } from '../api/normalise/money';
import { DAY_MS, parseDayText } from '../util/calendar';
import { type Units } from './types';

const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    if (formatters.size >= 32) formatters.clear();
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

export function formatDay(day: string, today: string, locale: string): string {
  const days = parseDayText(day);
  if (days === undefined) return day;
  const withYear = day.slice(0, 4) !== today.slice(0, 4);
  try {
    const format = cached(
      `day|${locale}|${withYear}`,
      // Midnight UTC formatted in UTC is that day everywhere.
      () =>
        new Intl.DateTimeFormat(locale, {
          day: 'numeric',
          month: 'short',
          year: withYear ? 'numeric' : undefined,
          timeZone: 'UTC',
        }),
    );
    return format.format(days * DAY_MS);
  } catch {
    return day;
  }
}

export function unitsText(units: Units): string {
  const abs = Math.abs(units);
  const whole = Math.floor(abs / AMOUNT_SCALE);
  return `${units < 0 ? '-' : ''}${whole}.${String(abs - whole * AMOUNT_SCALE).padStart(4, '0')}`;
}

export function formatUnits(units: Units, currency: string | undefined, locale: string): string {
  const text = unitsText(units);
  try {
    const format = cached(`money|${locale}|${currency ?? ''}`, () =>
      currency
        ? new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 4 })
        : new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 4 }),
    );
    // ES2023 formats a decimal string; the lib this project compiles against types numbers only.
    return format.format(text as unknown as number);
  } catch {
    const digits = text.replace(/0{1,2}$/, '');
    return currency ? `${digits} ${currency}` : digits;
  }
}
