import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { type Account } from './accounts/Account';
import { AccountModel } from './accounts/AccountModel';
import { AccountsAuthProvider } from './accounts/AccountsAuthProvider';
import { type CommandHost } from './commands/CommandHost';
import { registerCommands } from './commands/index';
import { affects, readSettings } from './config';
import { FolderSuggestions } from './features/FolderSuggestions';
import { HostingTasks, TASK_TYPE } from './features/HostingTasks';
import { HostKeys } from './features/HostKeys';
import { OutsideChangeNotifier } from './features/OutsideChangeNotifier';
import { Reachability } from './features/Reachability';
import { RenewalNotices } from './features/RenewalNotices';
import { AssistantTools } from './lm/registerTools';
import { FolderBindings } from './folder/FolderBindings';
import { type FolderHooks } from './folder/hooks';
import { Log } from './log';
import { type SshHooks } from './ssh/hooks';
import { type TestApi } from './testApi';
import { BalanceStatusBar } from './views/BalanceStatusBar';
import { Badges } from './views/Badges';
import { ContextKeys } from './views/contextKeys';
import { FORECAST_SCHEME, ForecastDocument } from './views/ForecastDocument';
import { FieldMapEditor } from './views/FieldMapEditor';
import { FolderServerItem } from './views/FolderServerItem';
import { HISTORY_SCHEME, HistoryDocument } from './views/HistoryDocument';
import { InvoicesTree } from './views/invoices/InvoicesTree';
import { DETAILS_SCHEME, OrderDetailsDocument } from './views/orders/OrderDetailsDocument';
import { OrdersArrangement } from './views/orders/OrdersArrangement';
import { OrdersTree } from './views/orders/OrdersTree';
import { SelectionContext } from './views/SelectionContext';
import { SENT_SCHEME, ServerAnswerDocument } from './views/ServerAnswerDocument';
import { ViewMessages } from './views/ViewMessages';

// No request is made here: each account's scheduler starts reading once its view is visible.
export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const channel = vscode.window.createOutputChannel('Hosting Account', { log: true });
  const log = new Log(channel);
  const { version } = context.extension.packageJSON as { version: string };
  const model = new AccountModel({
    context,
    log,
    userAgent: `hosting-account-vscode/${version} (VS Code ${vscode.version})`,
  });

  const arrangement = new OrdersArrangement(model, context.globalState);
  const orders = new OrdersTree(model, arrangement);
  const ordersView = vscode.window.createTreeView('hostingAccount.orders', {
    treeDataProvider: orders,
    showCollapseAll: true,
    canSelectMany: true,
  });
  ordersView.description = arrangement.description;
  const invoices = new InvoicesTree(model);
  const invoicesView = vscode.window.createTreeView('hostingAccount.invoices', { treeDataProvider: invoices });
  const statusBar = new BalanceStatusBar(model, () => readSettings().lowBalanceThreshold);
  const details = new OrderDetailsDocument(model);
  const badges = new Badges(model, ordersView, invoicesView);
  const forecast = new ForecastDocument(model);
  const history = new HistoryDocument(model);
  const renewalNotices = new RenewalNotices(model);
  const ssh: SshHooks = {};
  const testing = context.extensionMode === vscode.ExtensionMode.Test;
  // The extension's own tests never read the real ~/.ssh/config, and turn suggestions on only where they test them.
  const folderHooks: FolderHooks = { home: testing ? undefined : homedir(), suggest: !testing };
  const folders = new FolderBindings(context.workspaceState);
  const folderItem = new FolderServerItem(model, folders);
  const hostKeys = new HostKeys(model, context.globalState, ssh, orders);
  const fieldMaps = new FieldMapEditor();
  const sent = new ServerAnswerDocument(model);
  const suggestions = new FolderSuggestions(model, folders, folderHooks, ssh, log.scoped('folder'));
  const host: CommandHost = {
    model,
    log,
    orders,
    ordersView,
    invoicesView,
    details,
    arrangement,
    ssh,
    folders,
    hostKeys,
    fieldMaps,
  };
  const tools = new AssistantTools(model, log.scoped('tools'));
  const auth = new AccountsAuthProvider(model);

  context.subscriptions.push(
    channel,
    model,
    arrangement,
    orders,
    ordersView,
    invoices,
    invoicesView,
    statusBar,
    details,
    badges,
    forecast,
    history,
    renewalNotices,
    tools,
    folders,
    folderItem,
    hostKeys,
    suggestions,
    fieldMaps,
    sent,
    new ContextKeys(model),
    new ViewMessages(model, ordersView, invoicesView),
    new SelectionContext(model, ordersView, orders),
    auth,
    new OutsideChangeNotifier(model, {
      show: async (account, id) => {
        badges.seen(account, id);
        await reveal(host, account, id);
      },
      seen: (account, id) => badges.seen(account, id),
      flag: (account, id) => badges.flag(account, id),
      history: async (account, id) => {
        const node = id === undefined ? undefined : orders.nodeFor(account, id);
        await vscode.commands.executeCommand('hostingAccount.showHistory', node ?? account);
      },
    }),
    new Reachability(model, orders, ssh),
    ...registerCommands(host),
    vscode.tasks.registerTaskProvider(TASK_TYPE, new HostingTasks(model, folders, folderHooks, log.scoped('tasks'))),
    arrangement.onDidDescribe((description) => (ordersView.description = description)),
    vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, details),
    vscode.workspace.registerTextDocumentContentProvider(FORECAST_SCHEME, forecast),
    vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, history),
    vscode.workspace.registerTextDocumentContentProvider(SENT_SCHEME, sent),
    ordersView.onDidChangeVisibility((e) => model.setVisibility({ ordersVisible: e.visible })),
    ordersView.onDidChangeSelection((e) => statusBar.select(e.selection)),
    invoicesView.onDidChangeVisibility((e) => model.setVisibility({ invoicesVisible: e.visible })),
    vscode.window.onDidChangeWindowState((e) => model.setVisibility({ focused: e.focused })),
    vscode.workspace.onDidChangeConfiguration((event) => {
      model.settingsChanged(event);
      if (event.affectsConfiguration('hostingAccount.lowBalanceThreshold')) statusBar.update();
      if (affects(event, 'renewalWarningDays')) {
        statusBar.update();
        orders.renewalsChanged();
        badges.update();
        renewalNotices.settingsChanged();
      }
    }),
  );
  model.setVisibility({
    ordersVisible: ordersView.visible,
    invoicesVisible: invoicesView.visible,
    focused: vscode.window.state.focused,
  });

  return testing
    ? {
        model,
        orders,
        ordersView,
        invoices,
        invoicesView,
        statusBar,
        arrangement,
        badges,
        forecast,
        renewalNotices,
        newRenewalNotices: (options) => new RenewalNotices(model, options),
        tools,
        auth,
        log,
        ssh,
        context,
        folders,
        folderItem,
        folderHooks,
        suggestions,
        hostKeys,
      }
    : undefined;
}

async function reveal(host: CommandHost, account: Account, id: string): Promise<void> {
  await vscode.commands.executeCommand('hostingAccount.orders.focus');
  const node = host.orders.nodeFor(account, id);
  if (!node) return;
  const siblings = await host.orders.getChildren(host.orders.getParent(node));
  if (!siblings.includes(node)) await host.arrangement.set({ filter: 'all' });
  await host.ordersView.reveal(node, { select: true, focus: true });
}

export type { TestApi };

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
