/** Commands the features bundle registers itself when it loads (with the first key): the view-title filter and sort. */
export const FEATURE_COMMAND_IDS = ['hostingAccount.orders.filter', 'hostingAccount.orders.sort'] as const;
