/**
 * The forecast's days and amounts as a person reads them, in a locale: "Dec 3" (or "3 Dec"), "€12.90". The sentences
 * around them are the UI's (l10n); these only format, exactly and without `vscode`.
 */

import { AMOUNT_SCALE } from '../api/normalise/money';
import { DAY_MS, parseDayText } from '../util/calendar';
import { type Units } from './types';

/** Formatters are costly to make and a forecast formats hundreds of values: a few are kept, per locale and kind. */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
const MAX_FORMATTERS = 32;

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * A calendar day (`YYYY-MM-DD`) as the locale writes a short date: "Dec 3" in English, "3 Dec" in British English,
 * with the year when it is not `today`'s ("Jan 15, 2027"). Text that is not a day is returned as it is.
 */
export function formatDay(day: string, today: string, locale: string): string {
  const days = parseDayText(day);
  if (days === undefined) return day;
  const withYear = day.slice(0, 4) !== today.slice(0, 4);
  try {
    const format = cached(
      `day|${locale}|${withYear}`,
      () =>
        new Intl.DateTimeFormat(locale, {
          day: 'numeric',
          month: 'short',
          ...(withYear ? { year: 'numeric' } : {}),
          // The day is a calendar day, not an instant: formatted at UTC midnight in UTC, it is that day everywhere.
          timeZone: 'UTC',
        }),
    );
    return format.format(days * DAY_MS);
  } catch {
    return day;
  }
}

/** Units (1/10,000 of the currency unit) as exact decimal text: `-1234567` → "-123.4567". */
export function unitsText(units: Units): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  const whole = Math.floor(abs / AMOUNT_SCALE);
  const fraction = String(abs - whole * AMOUNT_SCALE).padStart(4, '0');
  return `${sign}${whole}.${fraction}`;
}

/**
 * An amount in the locale's money format, with the currency when there is one (a three-letter code): "€12.90",
 * "12,90 €", "€0.0123" for a price finer than a cent. Exact: Intl formats the decimal text, never a float.
 */
export function formatUnits(units: Units, currency: string | undefined, locale: string): string {
  const text = unitsText(units);
  try {
    const format = cached(`money|${locale}|${currency ?? ''}`, () =>
      currency
        ? new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 4 })
        : new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 4 }),
    );
    // Intl formats a decimal string exactly (ES2023); the lib this project compiles against types numbers only.
    return format.format(text as unknown as number);
  } catch {
    // An unknown locale or currency: plain digits are still better than nothing.
    const plainText = text.replace(/0{1,2}$/, '');
    return currency ? `${plainText} ${currency}` : plainText;
  }
}
