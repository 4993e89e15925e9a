import type * as vscode from 'vscode';
import type { AccountModel } from './accounts/AccountModel';
import type { AccountsAuthProvider } from './accounts/AccountsAuthProvider';
import type { FolderSuggestions } from './features/FolderSuggestions';
import type { HostKeys } from './features/HostKeys';
import type { FolderBindings } from './folder/FolderBindings';
import type { FolderHooks } from './folder/hooks';
import type { RenewalNoticeOptions, RenewalNotices } from './features/RenewalNotices';
import type { AssistantTools } from './lm/registerTools';
import type { Log } from './log';
import type { SshHooks } from './ssh/hooks';
import type { Badges } from './views/Badges';
import type { BalanceStatusBar } from './views/BalanceStatusBar';
import type { FolderServerItem } from './views/FolderServerItem';
import type { ForecastDocument } from './views/ForecastDocument';
import type { InvoicesTree } from './views/invoices/InvoicesTree';
import type { OrdersArrangement } from './views/orders/OrdersArrangement';
import type { OrdersTree } from './views/orders/OrdersTree';

/** Handed to the extension's own tests (and only to them): the live parts, to assert on what the user would see. */
export interface TestApi {
  /** Every account, the first one (`default`) first. */
  readonly model: AccountModel;
  readonly orders: OrdersTree;
  readonly ordersView: vscode.TreeView<unknown>;
  readonly invoices: InvoicesTree;
  readonly invoicesView: vscode.TreeView<unknown>;
  readonly statusBar: BalanceStatusBar;
  readonly arrangement: OrdersArrangement;
  readonly badges: Badges;
  /** The renewal forecast documents' provider. */
  readonly forecast: ForecastDocument;
  readonly renewalNotices: RenewalNotices;
  /** Another notifier over the same state, as a new window or a restart makes (the test disposes it). */
  readonly newRenewalNotices: (options: RenewalNoticeOptions) => RenewalNotices;
  readonly tools: AssistantTools;
  /** The Accounts menu's provider. */
  readonly auth: AccountsAuthProvider;
  readonly log: Log;
  /** A fast reachability probe and a pretend Remote-SSH window, for the tests. */
  readonly ssh: SshHooks;
  /** Its global state and secrets: a test writes them as another window would. */
  readonly context: vscode.ExtensionContext;
  /** The workspace folders' servers (workspaceState) and the active folder. */
  readonly folders: FolderBindings;
  /** The status bar item of the active folder's server. */
  readonly folderItem: FolderServerItem;
  /** Another home folder, Restricted Mode pretended, suggestions on: for the folder suggestion tests. */
  readonly folderHooks: FolderHooks;
  readonly suggestions: FolderSuggestions;
  readonly hostKeys: HostKeys;
}
