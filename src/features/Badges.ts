import * as vscode from 'vscode';
import { type Store } from '../store/Store';
import { Disposable } from '../util/lifecycle';
import { invoiceLook } from '../views/invoices/invoicePresentation';

/**
 * The numbers on the views' icons: orders that need attention (suspended, or stopped by someone else and not looked
 * at yet) and unpaid or overdue invoices. No badge at all when there is nothing to do.
 */
export class Badges extends Disposable {
  /** Orders an outside change stopped, until they change again or the user looks at them. */
  private readonly flagged = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly ordersView: vscode.TreeView<unknown>,
    private readonly invoicesView: vscode.TreeView<unknown>,
  ) {
    super();
    this.register(store.onDidChangeOrders(() => this.update()));
    this.register(store.onDidChangeData(() => this.update()));
    this.register(store.onDidChangeState(() => this.update()));
    this.update();
  }

  flag(id: string): void {
    this.flagged.add(id);
    this.update();
  }

  seen(id: string): void {
    if (this.flagged.delete(id)) this.update();
  }

  /** How many orders need attention now. */
  attention(): number {
    let count = 0;
    for (const order of this.store.orders.all) {
      if (order.state === 'suspended') count++;
      else if (this.flagged.has(order.id)) {
        // Flagged as stopped from outside: it stops needing attention once it runs again (or an action is under way).
        if (order.state === 'stopped' && !this.store.pending(order.id)) count++;
        else this.flagged.delete(order.id);
      }
    }
    return count;
  }

  private update(): void {
    const ready = this.store.state === 'ready';
    if (!ready) this.flagged.clear();
    const orders = ready ? this.attention() : 0;
    this.ordersView.badge =
      orders > 0 ? { value: orders, tooltip: vscode.l10n.t('Servers that need attention: {0}', orders) } : undefined;
    const unpaid = ready
      ? (this.store.invoices.value ?? []).filter((invoice) => invoiceLook(invoice).attention).length
      : 0;
    this.invoicesView.badge =
      unpaid > 0 ? { value: unpaid, tooltip: vscode.l10n.t('Unpaid invoices: {0}', unpaid) } : undefined;
  }
}
