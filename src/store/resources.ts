import { type Account, type Balance, type Invoice } from '../api/models';
import { listed } from './orders/OrderBook';
import { Resource, type ResourceDeps } from './Resource';
import { type ApiClientLike, type DataKind } from './types';
import { uniqueById } from './uniqueById';

export const KINDS: readonly DataKind[] = ['orders', 'balance', 'invoices', 'account'];

interface Values {
  balance: Balance;
  account: Account;
  invoices: readonly Invoice[];
}

export type Resources = { readonly [K in keyof Values]: Resource<Values[K]> };

/** Invoices listed twice across pages count once. */
export function makeResources(api: () => ApiClientLike, parts: ResourceDeps): Resources {
  return {
    balance: new Resource('balance', async (o) => ({ value: await api().getBalance(o) }), parts),
    account: new Resource('account', async (o) => ({ value: await api().getAccount(o) }), parts),
    invoices: new Resource(
      'invoices',
      async (o) => {
        const loaded = listed(await api().listInvoices(o));
        return { ...loaded, value: uniqueById(loaded.value) };
      },
      parts,
    ),
  };
}
