import type * as vscode from 'vscode';
import type { Accounts } from './accounts/index';
import type { KeyStore } from './auth/KeyStore';
import type { Features } from './features/index';
import type { Log } from './log';
import type { SshHooks } from './ssh/hooks';
import type { RefreshScheduler } from './store/RefreshScheduler';
import type { Store } from './store/Store';
import type { InvoicesTreeProvider } from './views/invoices/InvoicesTreeProvider';
import type { OrdersTreeProvider } from './views/orders/OrdersTreeProvider';
import type { BalanceStatusBar } from './views/statusBar/BalanceStatusBar';

/** Handed to the extension's own tests (and only to them): the live parts, to assert on what the user would see. */
export interface TestApi {
  readonly store: Store;
  readonly scheduler: RefreshScheduler;
  readonly orders: OrdersTreeProvider;
  readonly ordersView: vscode.TreeView<unknown>;
  readonly invoices: InvoicesTreeProvider;
  readonly invoicesView: vscode.TreeView<unknown>;
  readonly statusBar: BalanceStatusBar;
  readonly keys: KeyStore;
  readonly log: Log;
  /** Where VS Code writes this extension's log files. */
  readonly logUri: vscode.Uri;
  /** A fast reachability probe and a pretend Remote-SSH window, for the tests. */
  readonly ssh: SshHooks;
  /** Filter and sort, badges, the watch and the tools, once loaded (with the first key). */
  readonly features: () => Features | undefined;
  /** The accounts after the first, loaded on demand. */
  readonly accounts: () => Accounts;
  /** Its global state and secrets: a test writes them as another window would. */
  readonly context: vscode.ExtensionContext;
}
