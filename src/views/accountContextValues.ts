export type AccountRowState = 'ready' | 'noKey' | 'problem' | 'loading';

// `.added`: the accounts after the first, which can be removed (the first is the settings: only its key goes).
export const ACCOUNT_CONTEXT_VALUES = (['ready', 'noKey', 'problem', 'loading'] as const).flatMap((state) => [
  `hostingAccount.account.${state}`,
  `hostingAccount.account.${state}.added`,
]);
