/** The host of an API address ("" when it is not a URL): what the user knows the provider by. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return '';
  }
}
