import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { warningDays } from '../notify/renewalWords';
import { Disposable } from '../util/lifecycle';
import { invoiceLook } from './invoices/invoicePresentation';

// Attention: suspended, stopped from outside and not looked at yet, or a renewal the balance does not cover.
export class Badges extends Disposable {
  private readonly flagged = new WeakMap<Account, Set<string>>();

  constructor(
    private readonly model: AccountModel,
    private readonly ordersView: vscode.TreeView<unknown>,
    private readonly invoicesView: vscode.TreeView<unknown>,
  ) {
    super();
    this.register(model.onDidChangeOrders(() => this.update()));
    this.register(model.onDidChangeData(() => this.update()));
    this.register(model.onDidChangeState(() => this.update()));
    this.register(model.onDidChange(() => this.update()));
    this.update();
  }

  flag(account: Account, id: string): void {
    let ids = this.flagged.get(account);
    if (!ids) this.flagged.set(account, (ids = new Set()));
    ids.add(id);
    this.update();
  }

  seen(account: Account, id: string): void {
    if (this.flagged.get(account)?.delete(id)) this.update();
  }

  attention(): number {
    return this.model.accounts.reduce(
      (sum, account) => sum + (account.store.state === 'ready' ? this.attentionIn(account) : 0),
      0,
    );
  }

  private attentionIn(account: Account): number {
    const { store } = account;
    const flagged = this.flagged.get(account);
    const outlooks = warningDays(account.settings) ? account.forecast().orders : undefined;
    let count = 0;
    for (const order of store.orders.all) {
      const renewal = outlooks?.get(order.id)?.warn === true;
      if (order.state === 'suspended') count++;
      else if (flagged?.has(order.id)) {
        // It stops needing attention once it runs again or an action is under way.
        if (order.state === 'stopped' && !store.pending(order.id)) count++;
        else {
          flagged.delete(order.id);
          if (renewal) count++;
        }
      } else if (renewal) count++;
    }
    return count;
  }

  update(): void {
    for (const account of this.model.accounts) {
      if (account.store.state !== 'ready') this.flagged.delete(account);
    }
    const orders = this.attention();
    this.ordersView.badge =
      orders > 0 ? { value: orders, tooltip: vscode.l10n.t('Servers that need attention: {0}', orders) } : undefined;
    let unpaid = 0;
    for (const { store } of this.model.accounts) {
      if (store.state !== 'ready') continue;
      unpaid += (store.invoices.value ?? []).filter((invoice) => invoiceLook(invoice).attention).length;
    }
    this.invoicesView.badge =
      unpaid > 0 ? { value: unpaid, tooltip: vscode.l10n.t('Unpaid invoices: {0}', unpaid) } : undefined;
  }
}
