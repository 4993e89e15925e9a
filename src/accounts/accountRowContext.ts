/** What an account row's `contextValue` says after `hostingAccount.account.`: it decides the row's actions. */
export type AccountRowContext = 'ready' | 'noKey' | 'problem' | 'loading';

/** Every `contextValue` an account row can have: the menus' `viewItem` clauses are checked against these. */
export const ACCOUNT_ROW_CONTEXT_VALUES: readonly string[] = (
  ['ready', 'noKey', 'problem', 'loading'] satisfies AccountRowContext[]
).map((context) => `hostingAccount.account.${context}`);
