export const DEFAULT_ACCOUNT_ID = 'default';
export const API_KEY_SECRET = 'hostingAccount.apiKey';

// The first account keeps the name the extension always used.
export function secretNameOf(accountId: string): string {
  return accountId === DEFAULT_ACCOUNT_ID ? API_KEY_SECRET : `${API_KEY_SECRET}.${accountId}`;
}
