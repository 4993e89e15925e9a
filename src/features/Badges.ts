import * as vscode from 'vscode';
import { type Store } from '../store/Store';
import { Disposable, type IDisposable, toDisposable } from '../util/lifecycle';
import { invoiceLook } from '../views/invoices/invoicePresentation';
import { type AccountsSource, PerAccount } from './accountsSource';

/**
 * The numbers on the views' icons: orders that need attention (suspended, or stopped by someone else and not looked
 * at yet) and unpaid or overdue invoices, counted over every account. No badge at all when there is nothing to do.
 */
export class Badges extends Disposable {
  /** Per account (its store), the orders an outside change stopped, until they change again or the user looks. */
  private readonly flagged = new Map<Store, Set<string>>();
  /** Unset only while it is being built. */
  private readonly stores?: PerAccount<IDisposable>;

  constructor(
    accounts: AccountsSource,
    private readonly ordersView: vscode.TreeView<unknown>,
    private readonly invoicesView: vscode.TreeView<unknown>,
  ) {
    super();
    this.stores = this.register(
      new PerAccount(
        accounts,
        ({ store }) => {
          const listeners = [
            store.onDidChangeOrders(() => this.update()),
            store.onDidChangeData(() => this.update()),
            store.onDidChangeState(() => this.update()),
          ];
          return toDisposable(() => {
            this.flagged.delete(store);
            for (const listener of listeners) listener.dispose();
          });
        },
        () => this.update(),
      ),
    );
    this.update();
  }

  /** An order of this account (its store) was stopped from outside: it counts until it runs or is looked at. */
  flag(store: Store, id: string): void {
    let ids = this.flagged.get(store);
    if (!ids) this.flagged.set(store, (ids = new Set()));
    ids.add(id);
    this.update();
  }

  seen(store: Store, id: string): void {
    if (this.flagged.get(store)?.delete(id)) this.update();
  }

  /** How many orders need attention now, over every account. */
  attention(): number {
    return this.live().reduce((sum, store) => sum + (store.state === 'ready' ? this.attentionIn(store) : 0), 0);
  }

  private attentionIn(store: Store): number {
    const flagged = this.flagged.get(store);
    let count = 0;
    for (const order of store.orders.all) {
      if (order.state === 'suspended') count++;
      else if (flagged?.has(order.id)) {
        // Flagged as stopped from outside: it stops needing attention once it runs again (or an action is under way).
        if (order.state === 'stopped' && !store.pending(order.id)) count++;
        else flagged.delete(order.id);
      }
    }
    return count;
  }

  private live(): Store[] {
    return this.stores?.entries().map((e) => e.account.store) ?? [];
  }

  private update(): void {
    const stores = this.live();
    for (const store of stores) if (store.state !== 'ready') this.flagged.delete(store);
    const orders = this.attention();
    this.ordersView.badge =
      orders > 0 ? { value: orders, tooltip: vscode.l10n.t('Servers that need attention: {0}', orders) } : undefined;
    let unpaid = 0;
    for (const store of stores) {
      if (store.state !== 'ready') continue;
      unpaid += (store.invoices.value ?? []).filter((invoice) => invoiceLook(invoice).attention).length;
    }
    this.invoicesView.badge =
      unpaid > 0 ? { value: unpaid, tooltip: vscode.l10n.t('Unpaid invoices: {0}', unpaid) } : undefined;
  }
}
