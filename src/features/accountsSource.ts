import type * as vscode from 'vscode';
import type { Accounts } from '../accounts/index';
import { accountName } from '../accounts/accountName';
import { type Store } from '../store/Store';
import { Disposable, type IDisposable } from '../util/lifecycle';
import { type OrdersTreeProvider } from '../views/orders/OrdersTreeProvider';

/** One account as the features see it: its store and its own orders tree. */
export interface FeatureAccount {
  /** The account's id: stable across a rename. */
  readonly id: string;
  /** What the user calls it (for the notifications, with several accounts). */
  readonly name: string;
  readonly store: Store;
  readonly orders: OrdersTreeProvider;
}

/** Every account, the first one first, and when that list changes. */
export interface AccountsSource {
  list(): readonly FeatureAccount[];
  readonly onDidChange: vscode.Event<void>;
}

/** With one account (or before the accounts bundle is asked for): just it, for ever. */
export function singleAccount(store: Store, orders: OrdersTreeProvider): AccountsSource {
  const only = [{ id: 'default', name: '', store, orders }];
  return { list: () => only, onDidChange: () => ({ dispose: () => undefined }) };
}

/** Every live account of the accounts bundle. */
export function allAccounts(accounts: Accounts): AccountsSource {
  return {
    list: () =>
      accounts.parts().map((part) => ({
        id: part.record.id,
        name: accountName(part.record),
        store: part.store,
        orders: part.orders,
      })),
    onDidChange: accounts.onDidChange,
  };
}

/**
 * One thing per account (a watch, a notifier, listeners), made when the account appears and freed when it goes, so a
 * removed account's store is never listened to again. Keyed by the store: an account whose address changed gets a new
 * store, and so new ones.
 */
export class PerAccount<T extends IDisposable> extends Disposable {
  private readonly live = new Map<Store, { account: FeatureAccount; value: T }>();

  constructor(
    private readonly source: AccountsSource,
    private readonly make: (account: FeatureAccount) => T,
    private readonly changed: () => void = () => undefined,
  ) {
    super();
    this.register(source.onDidChange(() => this.sync()));
    this.register({ dispose: () => this.clear() });
    this.sync();
  }

  /** Each live account with its thing, the first account first. */
  entries(): Array<{ account: FeatureAccount; value: T }> {
    return [...this.live.values()];
  }

  private sync(): void {
    if (this.disposed) return;
    const accounts = this.source.list();
    const wanted = new Set(accounts.map((a) => a.store));
    for (const [store, entry] of this.live) {
      if (wanted.has(store)) continue;
      this.live.delete(store);
      entry.value.dispose();
    }
    const next = new Map<Store, { account: FeatureAccount; value: T }>();
    for (const account of accounts) {
      const existing = this.live.get(account.store);
      next.set(account.store, existing ? { account, value: existing.value } : { account, value: this.make(account) });
    }
    this.live.clear();
    for (const [store, entry] of next) this.live.set(store, entry);
    this.changed();
  }

  private clear(): void {
    for (const entry of this.live.values()) entry.value.dispose();
    this.live.clear();
  }
}
