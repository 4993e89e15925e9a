import * as vscode from 'vscode';
import { type Accounts, activateAccounts } from './accounts/index';
import { KeyStore } from './auth/KeyStore';
import { type CommandContext } from './commands/CommandContext';
import { COMMAND_IDS } from './commands/ids';
import { runCommand } from './commands/index';
import { activateFeatures, type Features } from './features/index';
import { affects, readSettings } from './config';
import { formatRequest, Log } from './log';
import { showRateLimitWait } from './notify/rateLimitWait';
import { logFailure, showReport, toReport } from './notify/report';
import { RefreshScheduler } from './store/RefreshScheduler';
import { createStoreFactory } from './store/StoreFactory';
import { type TestApi } from './testApi';
import { ContextKeys } from './views/contextKeys';
import { InvoicesTreeProvider } from './views/invoices/InvoicesTreeProvider';
import { DETAILS_SCHEME, OrderDetailsDocument } from './views/orders/OrderDetailsDocument';
import { OrdersTreeProvider } from './views/orders/OrdersTreeProvider';
import type { SshHooks } from './ssh/hooks';
import { ProblemReporter } from './views/ProblemReporter';
import { BalanceStatusBar } from './views/statusBar/BalanceStatusBar';
import { ViewMessages } from './views/ViewMessages';

/** The composition root: config → log → secrets → store → views, status bar, commands. No request is made here. */
export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const channel = vscode.window.createOutputChannel('Hosting Account', { log: true });
  const log = new Log(channel);
  const keys = new KeyStore(context.secrets);
  let settings = readSettings();
  const { version } = context.extension.packageJSON as { version: string };
  const httpLog = log.scoped('http');
  const stores = createStoreFactory(
    log,
    `hosting-account-vscode/${version} (VS Code ${vscode.version})`,
    () => settings,
  );
  // One store per account, all built the same way.
  const storeFor = stores.create;
  const store = storeFor(
    () => keys.get(),
    () => settings.baseUrl,
    'store',
  );

  const orders = new OrdersTreeProvider(store);
  const ordersView = vscode.window.createTreeView('hostingAccount.orders', {
    treeDataProvider: orders,
    showCollapseAll: true,
    canSelectMany: true,
  });
  const invoices = new InvoicesTreeProvider(store);
  const invoicesView = vscode.window.createTreeView('hostingAccount.invoices', { treeDataProvider: invoices });
  const statusBar = new BalanceStatusBar(store, () => settings.lowBalanceThreshold);
  const scheduler = new RefreshScheduler(store, settings.refreshIntervalSeconds);

  const viewMessages = new ViewMessages(store, ordersView, invoicesView);
  const details = new OrderDetailsDocument(store);
  const ssh: SshHooks = {};
  const ctx: CommandContext = {
    store,
    keys,
    log,
    orders,
    invoices,
    details,
    settings: () => settings,
    invoicesVisible: () => invoicesView.visible,
    globalState: context.globalState,
    ssh,
    accounts: () =>
      (accounts ??= activateAccounts({
        context,
        first: ctx,
        ordersView,
        invoicesView,
        statusBar,
        viewMessages,
        keyArrived: () => loadFeaturesOnce(),
        storeFor,
        parts: (s) => ({
          orders: new OrdersTreeProvider(s),
          invoices: new InvoicesTreeProvider(s),
          scheduler: new RefreshScheduler(s, settings.refreshIntervalSeconds),
        }),
      })),
  };
  // With a second account (added here, or arrived through Settings Sync) the accounts bundle loads; with one, never.
  let accounts: Accounts | undefined;
  if (context.globalState.get<{ accounts?: [] }>('hostingAccount.accounts')?.accounts?.length) ctx.accounts();

  context.subscriptions.push(
    stores,
    channel,
    keys,
    store,
    orders,
    ordersView,
    invoices,
    invoicesView,
    statusBar,
    scheduler,
    new ContextKeys(store),
    viewMessages,
    new ProblemReporter(
      store,
      () => settings.baseUrl,
      () => vscode.commands.executeCommand('hostingAccount.refresh'),
      log.scoped('notify'),
    ),
    { dispose: () => accounts?.dispose() },
    ...COMMAND_IDS.map((id) =>
      vscode.commands.registerCommand(id, async (arg: unknown, all: unknown) => {
        // A command acts in the account of the node it was invoked on (see accounts/); with one account, the only one.
        const where = accounts ? await accounts.contextFor(arg, id) : ctx;
        return where && runCommand(id, where, arg, all);
      }),
    ),
    details,
    vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, details),
    ordersView.onDidChangeVisibility((e) => scheduler.setVisibility({ ordersVisible: e.visible })),
    invoicesView.onDidChangeVisibility((e) => scheduler.setVisibility({ invoicesVisible: e.visible })),
    vscode.window.onDidChangeWindowState((e) => scheduler.setVisibility({ focused: e.focused })),
    keys.onDidChange(() => void onKeyChanged()),
    // A wait long enough to notice is shown; the notification's code loads then, not at activation.
    store.onDidWaitForLimit(({ until }) => {
      if (until - Date.now() >= 2_000) showRateLimitWait(until, () => store.cancelUserWaits());
    }),
    store.onDidRequest((entry) =>
      entry.error ? httpLog.warn(formatRequest(entry)) : httpLog.info(formatRequest(entry)),
    ),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('http')) {
        stores.networkChanged();
        store.settingsChanged();
      }
      if (!event.affectsConfiguration('hostingAccount')) return;
      settings = readSettings();
      if (affects(event, 'baseUrl') || affects(event, 'requestTimeout') || affects(event, 'maxRequestsPerMinute')) {
        store.settingsChanged();
      }
      if (affects(event, 'refreshInterval')) scheduler.setInterval(settings.refreshIntervalSeconds);
      if (affects(event, 'lowBalanceThreshold')) statusBar.update();
    }),
  );

  async function onKeyChanged(): Promise<void> {
    try {
      log.setSecret(await keys.get());
      await store.keyChanged();
    } catch (error) {
      // Secret storage failed: say so, rather than showing the views as if no key had been set.
      logFailure(log, 'reading the API key', error);
      void showReport(toReport(error, settings.baseUrl));
    }
  }

  // Loaded with the first key of any account, not at activation: a signed-out window has nothing to filter or watch.
  let features: Features | undefined;
  function loadFeaturesOnce(): void {
    if (features || !(store.hasApiKey || accounts?.parts().some((part) => part.store.hasApiKey))) return;
    features = activateFeatures({
      store,
      orders,
      ordersView,
      invoicesView,
      memento: context.globalState,
      log,
      accounts: ctx.accounts,
    });
    context.subscriptions.push(features);
    // The Accounts menu (the authentication provider) comes with the accounts bundle, also for one account.
    ctx.accounts();
  }
  const loadLater = store.onDidChangeState(loadFeaturesOnce);
  // The Accounts menu (its provider is in the accounts bundle) in every window, signed out too, so Sign In is offered
  // there; loaded a moment after activation, off its path, and following account-list changes of other windows.
  const loadSoon = setTimeout(() => {
    try {
      ctx.accounts();
    } catch (error) {
      log.warn(`the accounts could not be loaded: ${String(error).slice(0, 200)}`);
    }
  }, 1_000);
  context.subscriptions.push(loadLater, { dispose: () => clearTimeout(loadSoon) });

  scheduler.setVisibility({
    ordersVisible: ordersView.visible,
    invoicesVisible: invoicesView.visible,
    focused: vscode.window.state.focused,
  });
  void onKeyChanged();

  return context.extensionMode === vscode.ExtensionMode.Test
    ? {
        store,
        scheduler,
        orders,
        ordersView,
        invoices,
        invoicesView,
        statusBar,
        keys,
        log,
        logUri: context.logUri,
        ssh,
        features: () => features,
        accounts: ctx.accounts,
        context,
      }
    : undefined;
}

export type { TestApi };

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
