/** The host of an account's API address ("" when it is not a URL): what the user knows the provider by. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return '';
  }
}

/** What the user calls an account: its label, or else its provider's host. */
export function accountName(record: { readonly label?: string; readonly baseUrl: string }): string {
  return record.label || hostOf(record.baseUrl);
}
