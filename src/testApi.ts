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

// Handed to the extension's own tests only.
export interface TestApi {
  readonly model: AccountModel;
  readonly orders: OrdersTree;
  readonly ordersView: vscode.TreeView<unknown>;
  readonly invoices: InvoicesTree;
  readonly invoicesView: vscode.TreeView<unknown>;
  readonly statusBar: BalanceStatusBar;
  readonly arrangement: OrdersArrangement;
  readonly badges: Badges;
  readonly forecast: ForecastDocument;
  readonly renewalNotices: RenewalNotices;
  // As a new window or a restart makes it; the test disposes it.
  readonly newRenewalNotices: (options: RenewalNoticeOptions) => RenewalNotices;
  readonly tools: AssistantTools;
  readonly auth: AccountsAuthProvider;
  readonly log: Log;
  readonly ssh: SshHooks;
  readonly context: vscode.ExtensionContext;
  readonly folders: FolderBindings;
  readonly folderItem: FolderServerItem;
  readonly folderHooks: FolderHooks;
  readonly suggestions: FolderSuggestions;
  readonly hostKeys: HostKeys;
}
