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
        const listing = await api().listInvoices(o);
        const loaded = listed(listing);
        // There is no single-invoice path to read them at: the view can only say the list held ids.
        const count = listing.ids?.length ?? 0;
        const ids = { count, failed: 0, notYet: 0, noDetails: true } as const;
        const coverage = count ? { shown: loaded.value.length, ...loaded.coverage, ids } : loaded.coverage;
        return { coverage, value: uniqueById(loaded.value) };
      },
      parts,
    ),
  };
}
