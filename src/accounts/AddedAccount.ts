import type * as vscode from 'vscode';
import { KeyStore } from '../auth/KeyStore';
import { type CommandContext } from '../commands/CommandContext';
import { type RefreshScheduler } from '../store/RefreshScheduler';
import { type Store } from '../store/Store';
import { type InvoicesTreeProvider } from '../views/invoices/InvoicesTreeProvider';
import { type OrdersTreeProvider } from '../views/orders/OrdersTreeProvider';
import { type BalanceStatusBar } from '../views/statusBar/BalanceStatusBar';
import { type ViewMessages } from '../views/ViewMessages';
import { type AccountRecord, secretNameOf } from './accountList';
import { type AccountPart, type AccountRow } from './AccountsTree';

/** What the composition root hands over: the first account's parts and how to build a store. */
export interface AccountsHost {
  readonly context: vscode.ExtensionContext;
  /** The first account's command context (its store, key store, trees): today's setup, untouched. */
  readonly first: CommandContext;
  readonly ordersView: vscode.TreeView<unknown>;
  readonly invoicesView: vscode.TreeView<unknown>;
  readonly statusBar: BalanceStatusBar;
  readonly viewMessages: ViewMessages;
  /** An account's key arrived: the features (filter, badges, watch) load with the first key of any account. */
  readonly keyArrived: () => void;
  readonly storeFor: (getKey: () => Promise<string | undefined>, baseUrl: () => string, scope: string) => Store;
  /**
   * The tree and the schedule of an account, built by the activation bundle: their classes (and the tree's nodes)
   * must exist once, as the commands recognise nodes by the tree that made them.
   */
  readonly parts: (store: Store) => {
    orders: OrdersTreeProvider;
    invoices: InvoicesTreeProvider;
    scheduler: RefreshScheduler;
  };
}

/** An added account, live: its own key store, store, schedule and trees. */
export interface AddedAccount extends AccountPart {
  readonly keys: KeyStore;
  readonly scheduler: RefreshScheduler;
  readonly ctx: CommandContext;
  readonly subscriptions: vscode.Disposable[];
}

/** What an added account tells the accounts that hold it. */
export interface AddedAccountHooks {
  /** Its record as the accounts know it now (a rename keeps the store; the address is read per request). */
  readonly record: () => AccountRecord;
  readonly row: AccountRow;
  /** Its rows need drawing again (its state, balance or orders changed). */
  readonly redraw: () => void;
  /** Its state changed: the Accounts menu follows. */
  readonly stateChanged: () => void;
}

/** Builds an account after the first: its key store under its own id, its store, schedule and trees. */
export function buildAddedAccount(host: AccountsHost, record: AccountRecord, hooks: AddedAccountHooks): AddedAccount {
  const keys = new KeyStore(host.context.secrets, secretNameOf(record.id));
  const store = host.storeFor(
    () => keys.get(),
    () => hooks.record().baseUrl,
    `store:${record.id}`,
  );
  const { orders, invoices, scheduler } = host.parts(store);
  const ctx: CommandContext = {
    ...host.first,
    accountId: record.id,
    store,
    keys,
    orders,
    invoices,
    // One Invoices view shows every account's invoices.
    invoicesVisible: () => host.invoicesView.visible,
    // Per-order choices (SSH address, user) are kept per account: the same order id may exist in two accounts.
    globalState: scoped(host.context.globalState, `account/${record.id}/`),
  };
  const keyChanged = async (): Promise<void> => {
    try {
      host.first.log.setSecret(await keys.get());
      await store.keyChanged();
    } catch (error) {
      host.first.log.warn(`reading the API key of an added account failed: ${String(error).slice(0, 200)}`);
    }
  };
  const subscriptions: vscode.Disposable[] = [
    keys,
    orders,
    invoices,
    scheduler,
    store,
    keys.onDidChange(() => void keyChanged()),
    orders.onDidChangeTreeData((nodes) => host.first.orders.changed(Array.isArray(nodes) ? nodes : undefined)),
    invoices.onDidChangeTreeData(() => host.first.invoices.changed()),
    store.onDidChangeState(() => {
      hooks.redraw();
      hooks.stateChanged();
      host.statusBar.update();
      host.viewMessages.update();
      if (store.hasApiKey) host.keyArrived();
    }),
    store.onDidChangeData((kind) => {
      host.viewMessages.update();
      if (kind === 'balance' || kind === 'orders') hooks.redraw();
      if (kind === 'balance' || kind === 'account') host.statusBar.update();
      // The rows of the Invoices view say their account's balance and state.
      if (kind === 'balance' || kind === 'invoices') host.first.invoices.changed();
    }),
    store.onDidRequest(() => host.statusBar.requestBudgetChanged()),
  ];
  void keyChanged();
  return {
    record,
    prefix: `account/${record.id}`,
    row: hooks.row,
    keys,
    store,
    orders,
    invoices,
    scheduler,
    ctx,
    subscriptions,
  };
}

export function disposeAddedAccount(account: AddedAccount): void {
  for (const subscription of account.subscriptions.splice(0).reverse()) subscription.dispose();
}

function scoped(memento: vscode.Memento, prefix: string): vscode.Memento {
  return {
    keys: () =>
      memento
        .keys()
        .filter((key) => key.startsWith(prefix))
        .map((key) => key.slice(prefix.length)),
    get: <T>(key: string, fallback?: T) => memento.get<T>(prefix + key) ?? fallback,
    update: (key: string, value: unknown) => memento.update(prefix + key, value),
  };
}
