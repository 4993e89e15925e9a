export function formatMoney(amount: number, currency: string | undefined, locale: string): string {
  try {
    if (currency) return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
    return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
  } catch {
    // An unknown locale or currency code.
    return currency ? `${amount.toFixed(2)} ${currency}` : amount.toFixed(2);
  }
}

export function isLow(amount: number, threshold: number): boolean {
  return threshold > 0 && amount < threshold;
}
