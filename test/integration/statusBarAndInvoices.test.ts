import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type InvoiceNode } from '../../src/views/invoices/InvoicesTree';
import { captureOpenExternal, Harness, waitFor } from './harness';

describe('the balance, account and invoices', () => {
  let h: Harness;

  before(async () => {
    h = await Harness.start();
    await h.signIn();
    await h.store.refresh(['balance', 'account', 'invoices'], 'user');
  });
  after(() => h.dispose());

  it('shows the balance in the status bar, formatted for the locale, with the account in the tooltip', () => {
    const { item } = h.api.statusBar;
    assert.equal(item.id, 'hostingAccount.balance');
    assert.equal(
      item.text,
      `$(credit-card) ${new Intl.NumberFormat(vscode.env.language, { style: 'currency', currency: 'EUR' }).format(h.mock.state.balance.balance)}`,
    );
    assert.equal(item.backgroundColor, undefined);
    assert.equal((item.command as vscode.Command | undefined)?.command, 'hostingAccount.showAccount');
    const tooltip = (item.tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /Ada Lovelace/);
    assert.match(tooltip, /Updated at/);
    assert.match(tooltip, /API requests left this minute: \d+ of 100/);
  });

  it('warns with the warning background when the balance is below the threshold', async () => {
    await h.setSetting('lowBalanceThreshold', 1_000);
    try {
      await waitFor(() => h.api.statusBar.item.backgroundColor, 'the warning background');
      assert.equal((h.api.statusBar.item.backgroundColor as vscode.ThemeColor).id, 'statusBarItem.warningBackground');
      assert.match(h.api.statusBar.item.text, /^\$\(warning\)/);
    } finally {
      await h.setSetting('lowBalanceThreshold', undefined);
    }
    await waitFor(() => !h.api.statusBar.item.backgroundColor, 'the normal background');
  });

  it('shows a problem state, keeping the last balance, when it cannot be read', async () => {
    h.mock.faults.add({ kind: 'html', path: '/api/v1/balance' });
    try {
      await h.store.refresh(['balance'], 'user');
      assert.match(h.api.statusBar.item.text, /^\$\(warning\) .*42/);
      assert.match((h.api.statusBar.item.tooltip as vscode.MarkdownString).value, /The last refresh failed/);
    } finally {
      h.mock.faults.clear();
    }
    await h.store.refresh(['balance'], 'user');
    assert.match(h.api.statusBar.item.text, /^\$\(credit-card\)/);
  });

  it('lists invoices newest first with status, amount and date; unpaid and overdue stand out', () => {
    const nodes = h.invoiceNodes();
    assert.equal(nodes.length, h.mock.state.invoices.length);
    const items = nodes.map((n: InvoiceNode) => h.api.invoices.getTreeItem(n));
    const newestFirst = [...h.mock.state.invoices].sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
    assert.deepEqual(
      items.map((item) => item.label),
      newestFirst.map((invoice) => invoice.number),
    );
    for (const [index, invoice] of newestFirst.entries()) {
      const item = items[index];
      assert.ok(String(item?.description).endsWith(invoice.date.slice(0, 10)), String(item?.description));
      if (invoice.status === 'paid') assert.match(String(item?.description), /^Paid · /);
      else assert.match(String(item?.description), /^(UNPAID|OVERDUE) · /);
      assert.match(item?.contextValue ?? '', /^invoice\.(paid|unpaid|overdue)\.link$/);
    }
  });

  it('opens an invoice link in the browser, from the menu and with Enter on the row', async () => {
    const node = h.invoiceNodes()[0];
    assert.ok(node);
    const opened = await captureOpenExternal(() => vscode.commands.executeCommand('hostingAccount.invoice.open', node));
    assert.equal(opened?.toString(true), node.invoice.url);
    // Enter (and a click) run the row's command with its arguments.
    const { command } = h.api.invoices.getTreeItem(node);
    assert.equal(command?.command, 'hostingAccount.invoice.open');
    const entered = await captureOpenExternal(() =>
      vscode.commands.executeCommand(command.command, ...((command.arguments ?? []) as unknown[])),
    );
    assert.equal(entered?.toString(true), node.invoice.url);
  });

  it('shows the Invoices view from the palette', async () => {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('hostingAccount.showInvoices');
    await waitFor(() => h.api.invoicesView.visible, 'the Invoices view visible');
  });

  it('shows every invoice field in the tooltip', () => {
    const node = h.invoiceNodes()[0];
    assert.ok(node);
    const item = h.api.invoices.resolveTreeItem(h.api.invoices.getTreeItem(node), node);
    const tooltip = (item.tooltip as vscode.MarkdownString).value;
    for (const key of Object.keys(node.invoice.raw)) assert.ok(tooltip.includes(key.replace(/_/g, '\\_')), key);
  });

  it('opens the account summary from the status bar item', async () => {
    const window = vscode.window as unknown as Record<string, unknown>;
    const original = window.createQuickPick as () => vscode.QuickPick<vscode.QuickPickItem>;
    let pick: vscode.QuickPick<vscode.QuickPickItem> | undefined;
    window.createQuickPick = () => (pick = original());
    try {
      const command = h.api.statusBar.item.command as vscode.Command;
      await vscode.commands.executeCommand(command.command, ...((command.arguments ?? []) as unknown[]));
    } finally {
      window.createQuickPick = original;
    }
    assert.ok(pick);
    const labels = pick.items.map((i) => i.label);
    assert.ok(
      labels.some((l) => l.includes('Ada Lovelace')),
      labels.join(' | '),
    );
    assert.ok(pick.items.some((i) => i.description === 'ada@example.com'));
    assert.ok(pick.items.some((i) => i.label === 'Company' && i.description === 'Analytical Engines Ltd'));
    assert.ok(labels.some((l) => /credit-card.*42/.test(l)));
    assert.ok(labels.some((l) => l.includes('Show Invoices')));
    assert.ok(labels.some((l) => l.includes('Change API Key')));
    assert.ok(labels.some((l) => l.includes('Open Provider Website')));
    pick.hide();
  });
});
