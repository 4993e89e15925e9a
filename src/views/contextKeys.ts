import * as vscode from 'vscode';
import { type AccountModel } from '../accounts/AccountModel';
import { Disposable } from '../util/lifecycle';

/** Sets context keys, only on a real change: each one is a round trip to the renderer. */
export function contextSetter(): (key: string, value: unknown) => void {
  const values = new Map<string, unknown>();
  return (key, value) => {
    if (values.get(key) === value) return;
    values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  };
}

/** The welcome content speaks for the first account: with several, each account's row says its own state. */
export class ContextKeys extends Disposable {
  private readonly set = contextSetter();

  constructor(private readonly model: AccountModel) {
    super();
    this.register(model.onDidChangeState(() => this.update()));
    this.register(model.onDidChangeData(() => this.update()));
    this.register(model.onDidChange(() => this.update()));
    this.update();
  }

  private update(): void {
    const { accounts, first, several } = this.model;
    const { store } = first;
    const { ordersInfo, invoices } = store;
    const keys = {
      'hostingAccount.state': store.state,
      'hostingAccount.hasKey': store.hasApiKey,
      'hostingAccount.severalAccounts': several,
      'hostingAccount.anyKey': accounts.some((account) => account.store.hasApiKey),
      'hostingAccount.anyReady': accounts.some((account) => account.store.state === 'ready'),
      'hostingAccount.ordersLoaded': ordersInfo.updatedAt !== undefined,
      'hostingAccount.ordersFailed': ordersInfo.updatedAt === undefined && ordersInfo.error !== undefined,
      'hostingAccount.invoicesLoaded': invoices.updatedAt !== undefined,
      'hostingAccount.invoicesFailed': invoices.updatedAt === undefined && invoices.error !== undefined,
    };
    for (const [key, value] of Object.entries(keys)) this.set(key, value);
  }
}
