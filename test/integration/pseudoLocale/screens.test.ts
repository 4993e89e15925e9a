/**
 * Runs only in `npm run test:pseudo-locale`: VS Code's display language is the pseudo-locale `qps-ploc`, and the
 * extension's bundles are the generated pseudo-translations. Each test opens one of the main screens and fails on
 * any plain English that did not come through l10n (see ./leaks.ts).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type OrderNode } from '../../../src/views/orders/OrderNode';
import { activeExtension } from '../env';
import { captureMessages, fakeInputBox, Harness, stubWindow, waitFor } from '../harness';
import { ScreenText, serverStrings } from './leaks';

interface Manifest {
  description: string;
  contributes: {
    viewsContainers: { activitybar: Array<{ title: string }> };
    views: Record<string, Array<{ name: string; contextualTitle?: string }>>;
    viewsWelcome: Array<{ view: string; contents: string }>;
    commands: Array<{ command: string; title: string; category: string }>;
    configuration: { title: string; properties: Record<string, { markdownDescription?: string }> };
  };
}

const API = '/api/v1/orders';

describe('pseudo-locale: every string on screen comes through l10n', function () {
  this.timeout(60_000);
  let h: Harness;
  const restores: Array<() => void> = [];

  before(async () => {
    h = await Harness.start();
  });
  afterEach(() => {
    for (const restore of restores.splice(0)) restore();
    h.mock.faults.clear();
  });
  after(() => h.dispose());

  /** Records what the extension shows through notifications, status bar messages and progress while `run` runs. */
  async function watch(
    screen: ScreenText,
    run: () => Thenable<unknown> | Promise<unknown>,
    answers: Parameters<typeof captureMessages>[0] = {},
  ): Promise<void> {
    const messages = captureMessages(answers);
    restores.push(messages.restore);
    restores.push(
      stubWindow('setStatusBarMessage', (text: string) => {
        screen.add('status bar message', text);
        return new vscode.Disposable(() => undefined);
      }),
    );
    const withProgress = vscode.window.withProgress.bind(vscode.window);
    restores.push(
      stubWindow('withProgress', (options: vscode.ProgressOptions, task: never) => {
        screen.add('progress title', options.title);
        return withProgress(options, task);
      }),
    );
    try {
      await run();
    } finally {
      for (const shown of messages.shown) {
        screen.add(`${shown.level} message`, shown.message);
        for (const option of shown.options) {
          if (typeof option === 'string') screen.add(`${shown.level} message button`, option);
          else if (option && typeof option === 'object' && 'detail' in option) {
            screen.add(`${shown.level} message detail`, option.detail);
          }
        }
      }
    }
  }

  /** What the server sent, as the extension read it: every key and value may be shown as it is. */
  function serverData(): string[] {
    const { state } = h.mock;
    const { store } = h;
    return serverStrings(
      state.account,
      state.balance,
      state.orders,
      state.invoices,
      new URL(h.mock.url).host,
      store.account.value?.raw,
      store.orders.all.map((order) => order.raw),
      store.invoices.value?.map((invoice) => invoice.raw),
    );
  }

  function assertNoEnglish(screen: ScreenText): void {
    assert.ok(screen.count > 0, 'the screen showed something');
    assert.deepEqual(screen.leaks(serverData()), [], 'English that bypassed l10n');
  }

  it('runs in the pseudo-locale, with the pseudo bundles loaded', () => {
    assert.equal(vscode.env.language, 'qps-ploc');
    assert.match(vscode.l10n.t('Running'), /^⟦.+⟧$/);
  });

  it('localises the manifest: views, command titles, welcome content and settings', async () => {
    const manifest = (await activeExtension()).packageJSON as Manifest;
    const screen = new ScreenText();
    screen.add('description', manifest.description);
    for (const container of manifest.contributes.viewsContainers.activitybar) {
      screen.add('view container', container.title);
    }
    for (const view of Object.values(manifest.contributes.views).flat()) {
      screen.add('view name', view.name);
      screen.add('view contextual title', view.contextualTitle);
    }
    for (const welcome of manifest.contributes.viewsWelcome) screen.add(`welcome of ${welcome.view}`, welcome.contents);
    for (const command of manifest.contributes.commands) {
      screen.add(`${command.command} title`, command.title);
      screen.add(`${command.command} category`, command.category);
    }
    screen.add('settings title', manifest.contributes.configuration.title);
    for (const [name, property] of Object.entries(manifest.contributes.configuration.properties)) {
      screen.add(name, property.markdownDescription);
    }
    assertNoEnglish(screen);
  });

  it('signed out: the status bar, Refresh and the key box', async () => {
    const screen = new ScreenText();
    const { item } = h.api.statusBar;
    screen.add('status bar item name', item.name);
    await watch(screen, () => vscode.commands.executeCommand('hostingAccount.refresh'));
    const { box, restore } = fakeInputBox(['wrong-key-0000']);
    restores.push(restore);
    await watch(screen, () => vscode.commands.executeCommand('hostingAccount.setApiKey'));
    const shown = box as unknown as { title: string; prompt: string; placeholder: string };
    screen.add('key box title', shown.title);
    screen.add('key box prompt', shown.prompt);
    screen.add('key box placeholder', shown.placeholder);
    for (const message of box.messages) screen.add('key box validation', message);
    assert.equal(box.messages.length, 1, 'the wrong key was rejected');
    assertNoEnglish(screen);
  });

  it('signed in: servers, their tooltips, the status bar and the invoices', async () => {
    await h.signIn();
    await h.store.refresh(['balance', 'account', 'invoices'], 'user');
    const screen = new ScreenText();
    for (const node of (await h.api.orders.getChildren()) as OrderNode[]) {
      const item = h.api.orders.resolveTreeItem(h.api.orders.getTreeItem(node), node);
      screen.add(`server ${node.id} description`, item.description);
      screen.add(`server ${node.id} tooltip`, item.tooltip);
      screen.add(`server ${node.id} accessibility`, item.accessibilityInformation?.label);
    }
    const { item } = h.api.statusBar;
    screen.add('status bar text', item.text);
    screen.add('status bar tooltip', item.tooltip);
    screen.add('status bar accessibility', item.accessibilityInformation?.label);
    for (const node of h.invoiceNodes()) {
      const invoice = h.api.invoices.resolveTreeItem(h.api.invoices.getTreeItem(node), node);
      screen.add(`invoice ${node.invoice.id} description`, invoice.description);
      screen.add(`invoice ${node.invoice.id} tooltip`, invoice.tooltip);
      screen.add(`invoice ${node.invoice.id} accessibility`, invoice.accessibilityInformation?.label);
      screen.add(`invoice ${node.invoice.id} command`, invoice.command?.title);
    }
    assertNoEnglish(screen);
  });

  it("says a server's own status word that only names its state in the user's language", async () => {
    const nodes = (await h.api.orders.getChildren()) as OrderNode[];
    const suspended = nodes.find((node) => node.order.state === 'suspended' && node.order.statusText);
    assert.ok(suspended, 'the seed has a suspended server whose status word says so');
    const { description } = h.api.orders.getTreeItem(suspended);
    assert.ok(String(description).includes(vscode.l10n.t('Suspended')), String(description));
  });

  it('the account summary and the server picker', async () => {
    const screen = new ScreenText();
    const createQuickPick = vscode.window.createQuickPick.bind(vscode.window);
    let summary: vscode.QuickPick<vscode.QuickPickItem> | undefined;
    restores.push(stubWindow('createQuickPick', () => (summary = createQuickPick())));
    await vscode.commands.executeCommand('hostingAccount.showAccount');
    assert.ok(summary);
    screen.add('summary title', summary.title);
    screen.add('summary placeholder', summary.placeholder);
    for (const entry of summary.items) {
      screen.add('summary item', entry.label);
      screen.add('summary item description', entry.description);
      screen.add('summary item detail', entry.detail);
    }
    summary.hide();
    restores.push(
      stubWindow('showQuickPick', (items: vscode.QuickPickItem[], options: vscode.QuickPickOptions) => {
        screen.add('picker title', options.title);
        screen.add('picker placeholder', options.placeHolder);
        for (const entry of items) {
          screen.add('picker item description', entry.description);
          screen.add('picker item detail', entry.detail);
        }
        return Promise.resolve(undefined);
      }),
    );
    await watch(screen, () => vscode.commands.executeCommand('hostingAccount.order.restart'));
    assertNoEnglish(screen);
  });

  it('confirmations, progress and the result of an action', async () => {
    const screen = new ScreenText();
    const running = h.store.orders.all.find((order) => order.state === 'running');
    const stopped = h.store.orders.all.find((order) => order.state === 'stopped');
    assert.ok(running && stopped);
    // Dismissed: the confirmations are read, nothing is sent.
    await watch(screen, () => vscode.commands.executeCommand('hostingAccount.order.stop', running.id));
    await watch(screen, () => vscode.commands.executeCommand('hostingAccount.order.reinstall', running.id));
    await watch(screen, () => vscode.commands.executeCommand('hostingAccount.order.copyId', running.id));
    await watch(screen, async () => {
      await vscode.commands.executeCommand('hostingAccount.order.start', stopped.id);
      await waitFor(
        () => h.store.orders.get(stopped.id)?.state === 'running' && !h.store.pending(stopped.id),
        'the start to settle',
      );
    });
    assertNoEnglish(screen);
  });

  it('failures: a refresh that fails, a stale view, an action refused', async () => {
    const screen = new ScreenText();
    h.mock.faults.add({ kind: 'status', status: 500, path: API });
    await watch(screen, () => vscode.commands.executeCommand('hostingAccount.refresh'));
    screen.add('orders view message', h.api.ordersView.message);
    h.mock.faults.clear();
    h.mock.faults.add({ kind: 'malformed', path: API });
    await watch(screen, () => h.store.refresh(['orders'], 'user'));
    screen.add('orders view message', h.api.ordersView.message);
    h.mock.faults.clear();
    // A body of another shape: the reader's reason is worded in notify/, not sent as English from the API layer.
    h.mock.faults.add({ kind: 'empty', path: API });
    await watch(screen, () => h.store.refresh(['orders'], 'user'));
    screen.add('orders view message', h.api.ordersView.message);
    h.mock.faults.clear();
    // The balance's failure in the status bar tooltip: a reason worded in notify/, not the API layer's English.
    h.mock.faults.add({ kind: 'status', status: 503, path: '/api/v1/balance' });
    await watch(screen, () => h.store.refresh(['balance'], 'user'));
    assert.ok(h.store.balance.error, 'the balance read failed');
    screen.add('status bar tooltip', h.api.statusBar.item.tooltip);
    h.mock.faults.clear();
    const running = h.store.orders.all.find((order) => order.state === 'running');
    assert.ok(running);
    h.mock.faults.add({ kind: 'status', status: 422, path: `${API}/${running.id}/action` });
    await watch(screen, () => vscode.commands.executeCommand('hostingAccount.order.restart', running.id), {
      warning: undefined,
    });
    assertNoEnglish(screen);
  });
});
