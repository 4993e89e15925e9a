/** The first account: today's setup, the `hostingAccount.baseUrl` setting with the secret it always used. */
export const DEFAULT_ACCOUNT_ID = 'default';
/** The secret the first account's key has always been kept under. */
export const API_KEY_SECRET = 'hostingAccount.apiKey';

/** The SecretStorage name of an account's key. The first account keeps the name the extension always used. */
export function secretNameOf(accountId: string): string {
  return accountId === DEFAULT_ACCOUNT_ID ? API_KEY_SECRET : `${API_KEY_SECRET}.${accountId}`;
}
