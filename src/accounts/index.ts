/** The accounts bundle: loaded only when a second account exists or is being added (see lazy.ts). */
import * as vscode from 'vscode';
import { type CommandContext } from '../commands/CommandContext';
import { type RefreshScheduler } from '../store/RefreshScheduler';
import { type AccountRecord, allAccounts, DEFAULT_ACCOUNT_ID } from './accountList';
import { AccountRegistry } from './AccountRegistry';
import { AccountsAuthProvider, AUTH_PROVIDER_ID } from './AccountsAuthProvider';
import { type AccountPart, AccountsTree } from './AccountsTree';
import { BalanceOfSelection, InvoicesByAccount, nameOf } from './AccountViews';
import { type AccountsHost, type AddedAccount, buildAddedAccount, disposeAddedAccount } from './AddedAccount';

export { AccountRegistry };
export type { AccountsHost };

/** Commands that act in no account in particular, or choose one themselves. */
const ACCOUNT_FREE = new Set([
  'hostingAccount.showLog',
  'hostingAccount.showInvoices',
  'hostingAccount.invoice.open',
  'hostingAccount.account.add',
  'hostingAccount.account.rename',
  'hostingAccount.account.remove',
  'hostingAccount.account.editAddress',
]);

export class Accounts implements vscode.Disposable {
  readonly registry: AccountRegistry;
  readonly tree: AccountsTree;
  readonly auth: AccountsAuthProvider;
  readonly invoices: InvoicesByAccount;
  readonly balance: BalanceOfSelection;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** Accounts were added, removed or relabelled (the features follow every account's store). */
  readonly onDidChange = this.changeEmitter.event;
  private readonly added = new Map<string, AddedAccount>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly host: AccountsHost) {
    this.registry = new AccountRegistry(host.context.globalState, host.context.secrets);
    this.tree = new AccountsTree(() => this.parts());
    this.invoices = new InvoicesByAccount(this.tree, () => this.parts());
    this.balance = new BalanceOfSelection(this.tree, () => this.parts(), host.statusBar);
    this.auth = new AccountsAuthProvider({
      records: () => this.records,
      storeOf: (id) => this.contextOf(id)?.store,
      rowOf: (id) => this.tree.rowOf(id),
      keysChanged: async () => {
        const stores = [host.first.store, ...[...this.added.values()].map((a) => a.store)];
        await Promise.all(stores.map((store) => store.keyChanged().catch(() => undefined)));
      },
      signOut: async (id) => {
        await this.contextOf(id)?.keys.delete();
        host.first.log.info('signed out of an account from the Accounts menu (its key was removed)');
      },
    });
    this.subscriptions.push(
      this.auth,
      // Not declared in `contributes.authentication` (see the README): VS Code logs a warning and it still works.
      vscode.authentication.registerAuthenticationProvider(
        AUTH_PROVIDER_ID,
        vscode.l10n.t('Hosting Account'),
        this.auth,
        { supportsMultipleAccounts: true },
      ),
      host.first.store.onDidChangeState(() => this.auth.update()),
      this.registry,
      this.registry.onDidChange(() => this.sync()),
      this.changeEmitter,
      host.ordersView.onDidChangeVisibility(() => this.setVisibility()),
      host.invoicesView.onDidChangeVisibility(() => this.setVisibility()),
      host.ordersView.onDidChangeSelection((e) => this.balance.select(e.selection)),
      vscode.window.onDidChangeWindowState(() => this.setVisibility()),
      // A key set, changed or removed in another window (or through the Accounts menu) reaches every account here.
      host.first.store.onDidChangeState(() => this.redraw()),
      host.first.store.onDidChangeData((kind) => (kind === 'balance' || kind === 'orders') && this.redraw()),
      // The first account's are applied by extension.ts, whose listener was registered first (so its settings are
      // already read again here); these reach the added accounts.
      vscode.workspace.onDidChangeConfiguration((event) => this.settingsChanged(event)),
    );
    host.first.details.accounts = (id) => this.added.get(id)?.store;
    this.sync();
  }

  /** Every account, the first one first. */
  get records(): AccountRecord[] {
    return allAccounts(this.registry.stored, this.host.first.settings());
  }

  /**
   * The command context of the account a tree node belongs to; undefined for a node of an account removed meanwhile
   * (nothing is done with it). From the palette or a keybinding (no node), a command that acts in one account asks
   * which, when there are several; Refresh refreshes them all.
   */
  async contextFor(node: unknown, command: string): Promise<CommandContext | undefined> {
    if (this.tree.isNode(node)) {
      const part = this.tree.partOf(node);
      if (part?.orders === this.host.first.orders) return this.host.first;
      // A node of an account's earlier store (before its address changed) belongs to no live account any more.
      const live = part && this.added.get(part.record.id);
      return live?.orders === part?.orders ? live?.ctx : undefined;
    }
    if (!this.added.size || ACCOUNT_FREE.has(command) || (node !== undefined && command.includes('.order.'))) {
      // One account, a command about no account in particular, or an order id passed by a keybinding or another
      // extension: that always meant the first account, and still does.
      return this.host.first;
    }
    if (command === 'hostingAccount.refresh') {
      for (const account of this.added.values()) {
        void account.store.refresh(['orders', 'balance'], 'user').catch(() => {});
      }
      return this.host.first;
    }
    const pick = await vscode.window.showQuickPick(
      this.records.map((record) => ({
        label: record.label || vscode.l10n.t('Hosting Account'),
        description: record.baseUrl,
        id: record.id,
      })),
      { title: vscode.l10n.t('Which account?'), placeHolder: vscode.l10n.t('Choose the account to act in') },
    );
    return pick && this.contextOf(pick.id);
  }

  /** The command context of an account by id (undefined once it was removed). */
  contextOf(id: string): CommandContext | undefined {
    return id === DEFAULT_ACCOUNT_ID ? this.host.first : this.added.get(id)?.ctx;
  }

  /** The refresh schedule of an added account (the tests read when each datum is next due). */
  schedulerOf(id: string): RefreshScheduler | undefined {
    return this.added.get(id)?.scheduler;
  }

  /** Refresh interval, request limits and network settings reach every added account, as they reach the first. */
  private settingsChanged(event: vscode.ConfigurationChangeEvent): void {
    const client = ['http', 'hostingAccount.requestTimeout', 'hostingAccount.maxRequestsPerMinute'].some((section) =>
      event.affectsConfiguration(section),
    );
    const interval = event.affectsConfiguration('hostingAccount.refreshInterval');
    if (!client && !interval) return;
    const seconds = this.host.first.settings().refreshIntervalSeconds;
    for (const account of this.added.values()) {
      // The next request builds a client with the new limits or route; the requests under way finish on the old one.
      if (client) account.store.settingsChanged();
      if (interval) account.scheduler.setInterval(seconds);
    }
  }

  /** Reads the list again: builds the accounts added, frees the ones removed (their answers are dropped), relabels. */
  sync(): void {
    const records = this.records;
    const wanted = new Set(records.map((r) => r.id));
    for (const [id, account] of this.added) {
      if (wanted.has(id)) continue;
      this.added.delete(id);
      disposeAddedAccount(account);
    }
    for (const record of records.slice(1)) {
      const existing = this.added.get(record.id);
      if (existing && existing.record.baseUrl === record.baseUrl) {
        this.added.set(record.id, { ...existing, record });
        continue;
      }
      if (existing) disposeAddedAccount(existing);
      this.added.set(record.id, this.build(record));
    }
    // One account: no layer at all, so the tree is exactly the one-account tree.
    const several = this.added.size > 0;
    this.host.first.orders.layer = several ? this.tree : undefined;
    this.host.first.invoices.layer = several ? this.invoices : undefined;
    this.host.statusBar.accounts = several ? this.balance : undefined;
    this.host.statusBar.update();
    this.host.viewMessages.accounts = several
      ? () => this.parts().map((part) => ({ name: nameOf(part), store: part.store }))
      : undefined;
    this.host.viewMessages.update();
    void vscode.commands.executeCommand('setContext', 'hostingAccount.severalAccounts', this.added.size > 0);
    // An account gone (or relabelled) leaves or changes the Accounts menu at once.
    this.auth.update();
    this.redraw();
    this.changeEmitter.fire();
  }

  /** Every account's live parts, the first one first. */
  parts(): AccountPart[] {
    const [first] = this.records;
    const { store, orders, invoices } = this.host.first;
    const head: AccountPart[] = first
      ? [{ record: first, store, orders, invoices, prefix: '', row: this.tree.rowOf(first.id) }]
      : [];
    return [...head, ...this.added.values()];
  }

  private build(record: AccountRecord): AddedAccount {
    const account = buildAddedAccount(this.host, record, {
      record: () => this.added.get(record.id)?.record ?? record,
      row: this.tree.rowOf(record.id),
      redraw: () => this.redraw(),
      stateChanged: () => this.auth.update(),
    });
    queueMicrotask(() => this.setVisibility());
    return account;
  }

  private setVisibility(): void {
    for (const account of this.added.values()) {
      account.scheduler.setVisibility({
        ordersVisible: this.host.ordersView.visible,
        invoicesVisible: this.host.invoicesView.visible,
        focused: vscode.window.state.focused,
      });
    }
  }

  private redraw(): void {
    if (this.host.first.orders.layer) this.host.first.orders.changed(undefined);
    if (this.host.first.invoices.layer) this.host.first.invoices.changed();
  }

  dispose(): void {
    this.host.first.orders.layer = undefined;
    this.host.first.invoices.layer = undefined;
    this.host.statusBar.accounts = undefined;
    this.host.viewMessages.accounts = undefined;
    this.host.first.details.accounts = undefined;
    for (const account of this.added.values()) disposeAddedAccount(account);
    this.added.clear();
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }
}

export function activateAccounts(host: AccountsHost): Accounts {
  return new Accounts(host);
}
