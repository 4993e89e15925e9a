/** What an account row's `contextValue` says (`hostingAccount.account.<state>`): `noKey` offers Set API Key. */
export type AccountRowState = 'ready' | 'noKey' | 'problem' | 'loading';

/** Every `contextValue` of an account row: `.added` marks the accounts after the first, which can be removed. */
export const ACCOUNT_CONTEXT_VALUES = (['ready', 'noKey', 'problem', 'loading'] as const).flatMap((state) => [
  `hostingAccount.account.${state}`,
  `hostingAccount.account.${state}.added`,
]);
