import * as vscode from 'vscode';
import { type Store } from '../store/Store';
import { Disposable } from '../util/lifecycle';

/** Mirrors the store into the context keys that `when` clauses and welcome views read. */
export class ContextKeys extends Disposable {
  private readonly values = new Map<string, unknown>();

  constructor(private readonly store: Store) {
    super();
    this.register(store.onDidChangeState(() => this.update()));
    this.register(store.onDidChangeData(() => this.update()));
    this.update();
  }

  private update(): void {
    const { store } = this;
    this.set('hostingAccount.state', store.state);
    this.set('hostingAccount.hasKey', store.hasApiKey);
    this.set('hostingAccount.ordersLoaded', store.ordersInfo.updatedAt !== undefined);
    this.set(
      'hostingAccount.ordersFailed',
      store.ordersInfo.updatedAt === undefined && store.ordersInfo.error !== undefined,
    );
    this.set('hostingAccount.invoicesLoaded', store.invoices.updatedAt !== undefined);
    this.set(
      'hostingAccount.invoicesFailed',
      store.invoices.updatedAt === undefined && store.invoices.error !== undefined,
    );
  }

  /** Only real changes go to VS Code: each one is a round trip to the renderer. */
  private set(key: string, value: unknown): void {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
