import * as vscode from 'vscode';
import { type AccountModel } from '../accounts/AccountModel';
import { Disposable } from '../util/lifecycle';

/**
 * Mirrors the accounts into the context keys that `when` clauses and welcome views read. The welcome content speaks for
 * the first account: with several, the views show one row per account, and each row says its own state.
 */
export class ContextKeys extends Disposable {
  private readonly values = new Map<string, unknown>();

  constructor(private readonly model: AccountModel) {
    super();
    this.register(model.onDidChangeState(() => this.update()));
    this.register(model.onDidChangeData(() => this.update()));
    this.register(model.onDidChange(() => this.update()));
    this.update();
  }

  private update(): void {
    const { store } = this.model.first;
    this.set('hostingAccount.state', store.state);
    this.set('hostingAccount.hasKey', store.hasApiKey);
    this.set('hostingAccount.severalAccounts', this.model.several);
    // Palette commands and view titles that fit any account show while any account can serve them.
    this.set(
      'hostingAccount.anyKey',
      this.model.accounts.some((account) => account.store.hasApiKey),
    );
    this.set(
      'hostingAccount.anyReady',
      this.model.accounts.some((account) => account.store.state === 'ready'),
    );
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
