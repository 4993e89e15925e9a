import type * as Accounts from './index';

let accounts: typeof Accounts | undefined;

/**
 * Loads the accounts bundle when a second account exists or is being added: esbuild turns this `require('./index')`
 * into `require('./accounts.js')` (see esbuild.js). With one account it never loads, and nothing changes.
 */
export function loadAccounts(): typeof Accounts {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  accounts ??= require('./index') as typeof Accounts;
  return accounts;
}
