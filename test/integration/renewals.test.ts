import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { addAccount, removeAccount } from '../../src/accounts/accountList';
import { normaliseOrder } from '../../src/api/normalise/order';
import { formatDay, formatUnits } from '../../src/billing/display';
import { forecast } from '../../src/billing/forecast';
import { type RenewalNotices } from '../../src/features/RenewalNotices';
import { renewalTooltipLines } from '../../src/notify/renewalWords';
import { fixedZone } from '../../src/util/calendar';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import { type OrdersTreeNode } from '../../src/views/orders/OrdersTree';
import { mockDay } from '../mock-api/renewals';
import { type MockApi } from '../mock-api/server';
import { type InvoiceRecord } from '../mock-api/types';
import { captureMessages, extraMock, Harness, waitFor } from './harness';

const DAY_MS = 86_400_000;
const CLIENT_KEY = 'renewals-client-key-0123456789';
const CLIENT = 'renew02';

/**
 * Renewals on the mock's seed (dated from its clock): a balance of €42.50; staging-box (€5.90) renews tomorrow and is
 * covered, analytics-worker (€79.90) renews in 3 days and is short by €43.30, legacy-mail does not renew, the rest
 * renew after the 7-day window. The invoices are read only where a test says so (the seed's overdue one would be the
 * first charge the balance does not pay).
 */
describe('renewals: tooltip, mark, badge, status bar, forecast and notices', () => {
  let h: Harness;
  let messages: ReturnType<typeof captureMessages>;
  const notifiers: RenewalNotices[] = [];

  const text = (label: string | vscode.TreeItemLabel | undefined): string =>
    typeof label === 'string' ? label : (label?.label ?? '');
  const day = (inDays: number, now = Date.now()): string => formatDay(mockDay(now, inDays), mockDay(now, 0), 'en');
  const eur = (amount: number): string => formatUnits(Math.round(amount * 10_000), 'EUR', 'en');
  /** Markdown without its escapes. */
  const unescaped = (markdown: string): string => markdown.replace(/\\(.)/g, '$1');
  /** Long enough for a notice that is wrongly due to show (they are shown without awaiting anything). */
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300));
  const warnings = (): string[] => messages.shown.filter((m) => m.level === 'warning').map((m) => m.message);

  async function node(label: string): Promise<OrderNode> {
    const found = (await h.orderNodes()).find((n) => text(h.api.orders.getTreeItem(n).label) === label);
    assert.ok(found, label);
    return found;
  }

  async function tooltipOf(label: string): Promise<string> {
    const each = await node(label);
    const item = h.api.orders.resolveTreeItem(h.api.orders.getTreeItem(each), each);
    return unescaped((item.tooltip as vscode.MarkdownString).value);
  }

  const statusTooltip = (): string => unescaped((h.api.statusBar.item.tooltip as vscode.MarkdownString).value);

  /** The seed's invoice states, kept paid until the forecast test (see `before`). */
  let invoiceStates: InvoiceRecord['status'][] = [];

  before(async () => {
    h = await Harness.start({ renewalWarnings: true });
    // An earlier suite may have left the Invoices view open, and then the invoices are read at sign-in: paid, they
    // change nothing in what the tests before the forecast's see.
    invoiceStates = h.mock.state.invoices.map((invoice) => invoice.status);
    for (const invoice of h.mock.state.invoices) invoice.status = 'paid';
    // Captured before signing in: the first notice comes as soon as the balance and the servers are read.
    messages = captureMessages();
    await h.signIn();
    await h.store.refresh(['balance'], 'user');
    await waitFor(() => h.store.balance.value !== undefined, 'the balance');
  });

  after(async () => {
    for (const notifier of notifiers.splice(0)) notifier.dispose();
    messages.restore();
    await h.dispose();
  });

  it('says in the tooltip when each server renews, for how much, and whether the balance covers it', async () => {
    const short = await tooltipOf('analytics-worker');
    assert.ok(short.includes(`$(calendar) Renews ${day(3)} · ${eur(79.9)} / month`), short);
    assert.ok(short.includes(`$(warning) Your balance does not cover it: short by ${eur(43.3)}`), short);
    // Its renewal tomorrow is paid; the next month's is not, once analytics-worker's has taken the rest.
    const later = await tooltipOf('staging-box');
    assert.ok(later.includes(`$(calendar) Renews ${day(1)} · ${eur(5.9)} / month`), later);
    assert.match(later, /\$\(warning\) Your balance does not cover its renewal on \w+ \d+: short by €[\d,.]+\n/);
    // Past the window: said in the tooltip, not marked on the row (see below).
    const outside = await tooltipOf('web-frontend-01');
    assert.ok(outside.includes(`$(calendar) Renews ${day(12)} · ${eur(12.9)} / month`), outside);
    assert.match(outside, /\$\(warning\) Your balance does not cover it: short by €[\d,.]+\n/);
    const ending = await tooltipOf('legacy-mail');
    assert.ok(ending.includes(`$(calendar) Ends ${day(5)}: does not renew`), ending);
    assert.ok(!ending.includes('Covered') && !ending.includes('short by'), ending);
  });

  it('says in the tooltip that a cycle it cannot read is unknown, and forecasts only the next renewal', () => {
    const now = Date.now();
    const order = normaliseOrder({
      id: 'odd',
      name: 'odd-cycle',
      nextduedate: mockDay(now, 2),
      recurringamount: '5.00',
      currency: 'EUR',
      billingcycle: '1001 months',
    });
    const f = forecast({ amount: 100, currency: 'EUR', raw: {} }, [order], [], now, { zone: fixedZone(0) });
    assert.equal(f.renewals.length, 1);
    const [line] = renewalTooltipLines(f, order);
    assert.equal(line, `$(calendar) Renews ${day(2, now)} · ${eur(5)} · cycle unknown (1001 months)`);
  });

  it('puts the same line first under an expanded server, opening the forecast', async () => {
    const children = await h.api.orders.getChildren(await node('analytics-worker'));
    const first = h.api.orders.getTreeItem(children[0] as OrdersTreeNode);
    assert.equal(text(first.label), `Renews ${day(3)} · ${eur(79.9)} / month`);
    assert.equal(first.description, `Your balance does not cover it: short by ${eur(43.3)}`);
    assert.equal((first.iconPath as vscode.ThemeIcon).id, 'warning');
    assert.equal(first.command?.command, 'hostingAccount.showForecast');
  });

  it('marks the server the balance does not cover within the window, and counts it on the badge', async () => {
    const marked = h.api.orders.getTreeItem(await node('analytics-worker'));
    assert.equal(
      ((marked.iconPath as vscode.ThemeIcon).color as vscode.ThemeColor).id,
      'problemsWarningIcon.foreground',
    );
    assert.match(String(marked.description), /^renewal not covered · 192\.0\.2\.56 · /);
    for (const label of ['staging-box', 'legacy-mail', 'web-frontend-01']) {
      const item = h.api.orders.getTreeItem(await node(label));
      assert.doesNotMatch(String(item.description), /renewal not covered/, label);
    }
    const suspended = h.mock.state.orders.filter((o) => o.status === 'suspended').length;
    await waitFor(
      () => h.api.ordersView.badge?.value === suspended + 1,
      'the badge: the suspended one and the short one',
    );
  });

  it('says in the status bar what the balance does not cover, with the warning background', async () => {
    await waitFor(() => h.api.statusBar.item.backgroundColor, 'the warning background');
    assert.equal((h.api.statusBar.item.backgroundColor as vscode.ThemeColor).id, 'statusBarItem.warningBackground');
    assert.match(h.api.statusBar.item.text, /^\$\(warning\) /);
    const expected = `$(warning) ${eur(42.5)} does not cover analytics-worker's renewal on ${day(3)} (${eur(79.9)}): short by ${eur(43.3)}`;
    assert.ok(statusTooltip().includes(expected), statusTooltip());
    assert.match(h.api.statusBar.item.accessibilityInformation?.label ?? '', /does not cover the coming renewals/);
  });

  it('keeps the background for renewals within the warning window only, and drops every mark when it is 0', async () => {
    try {
      await h.setSetting('renewalWarningDays', 1);
      await waitFor(() => !h.api.statusBar.item.backgroundColor, 'no background: the short renewal is 3 days away');
      assert.ok(statusTooltip().includes('does not cover'), 'the tooltip still says so');
      await h.setSetting('renewalWarningDays', 0);
      const suspended = h.mock.state.orders.filter((o) => o.status === 'suspended').length;
      await waitFor(() => h.api.ordersView.badge?.value === suspended, 'the badge without the renewal');
      const item = h.api.orders.getTreeItem(await node('analytics-worker'));
      assert.doesNotMatch(String(item.description), /renewal not covered/);
    } finally {
      await h.setSetting('renewalWarningDays', undefined);
    }
    await waitFor(() => h.api.statusBar.item.backgroundColor, 'the warning background again');
  });

  it('told the short renewal once, at its step, naming the server, the date and the amount short', () => {
    const told = warnings();
    assert.equal(told.length, 1, told.join('\n'));
    assert.equal(
      told[0],
      `analytics-worker renews on ${day(3)}, in 3 days, for ${eur(79.9)}, and your balance does not cover it: short by ${eur(43.3)}.`,
    );
    const shown = messages.shown.find((m) => m.level === 'warning');
    assert.deepEqual(shown?.options, ['Open Forecast'], 'no invoice, so no Show Invoice');
  });

  it('tells each step once (7, 1 and 0 days before; 3 was told at sign-in), also after a restart', async () => {
    const now = Date.now();
    let clock = now - 4 * DAY_MS;
    // Counted first: a new notifier checks at once, and shows what is due without awaiting anything.
    const before = warnings().length;
    const notifier = h.api.newRenewalNotices({ now: () => clock, zone: fixedZone(0) });
    notifiers.push(notifier);
    const told = (): string[] => warnings().slice(before);
    await waitFor(() => told().length === 1, 'the 7-day notice');
    assert.equal(
      told()[0],
      `analytics-worker renews on ${day(3, now)}, in 7 days, for ${eur(79.9)}, and your balance does not cover it: short by ${eur(43.3)}.`,
    );
    notifier.checkAll();
    clock = now - 1 * DAY_MS; // 4 days before: still the 7-day step, told already
    notifier.checkAll();
    clock = now; // the 3-day step, told at sign-in by the window's own notifier
    notifier.checkAll();
    await settle();
    assert.equal(told().length, 1, told().join('\n'));
    clock = now + 2 * DAY_MS;
    notifier.checkAll();
    await waitFor(() => told().length === 2, 'the 1-day notice');
    assert.match(told()[1] ?? '', /^analytics-worker renews tomorrow, .+, for €79\.90, .+ short by €43\.30\.$/);
    notifier.dispose();
    // A restart: a new notifier over the same global state tells nothing already told.
    const restarted = h.api.newRenewalNotices({ now: () => clock, zone: fixedZone(0) });
    notifiers.push(restarted);
    restarted.checkAll();
    await settle();
    assert.equal(told().length, 2, told().join('\n'));
    clock = now + 3 * DAY_MS;
    restarted.checkAll();
    await waitFor(() => told().length === 3, 'the notice on the day');
    assert.equal(
      told()[2],
      `analytics-worker renews today for ${eur(79.9)}, and your balance does not cover it: short by ${eur(43.3)}.`,
    );
    restarted.checkAll();
    await settle();
    assert.equal(told().length, 3);
    assert.ok(!warnings().some((m) => m.includes('legacy-mail')), 'never for a server that does not renew');
    assert.ok(!warnings().some((m) => m.includes('staging-box')), 'never for a covered one');
    restarted.dispose();
  });

  it('shows the forecast: renewals in date order with the running balance, the day it runs out, unpaid invoices', async () => {
    h.mock.state.invoices.forEach((invoice, i) => (invoice.status = invoiceStates[i] ?? invoice.status));
    // Read already (the Invoices view was open, and a read of it may be under way) they are read again until the
    // store has the overdue one; else the command reads them.
    for (let tries = 0; h.store.invoices.value && tries < 3; tries++) {
      await h.store.refresh(['invoices'], 'user');
      if (h.store.invoices.value?.some((invoice) => invoice.status === 'overdue')) break;
    }
    await vscode.commands.executeCommand('hostingAccount.showForecast');
    const document = await waitFor(
      () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'hosting-account-forecast'),
      'the forecast document',
    );
    // What the provider makes of the account now: an earlier suite may have left this document open in VS Code, which
    // then refreshes its text on its own schedule.
    const markdown = h.api.forecast.provideTextDocumentContent(document.uri);
    const plainText = unescaped(markdown);
    assert.match(markdown, /^# Renewal forecast\n/);
    // Opening it read the invoices: the seed's overdue one is now the first charge the balance does not pay.
    assert.ok(plainText.includes(`The balance runs out on **`), plainText);
    const rows = markdown.split('\n').filter((line) => /^\| [^-D]/.test(line));
    assert.ok(rows.length >= 6, markdown);
    const staging = rows.find((row) => row.includes('staging\\-box'));
    const analytics = rows.find((row) => row.includes('analytics\\-worker'));
    assert.ok(staging && analytics, markdown);
    assert.ok(rows.indexOf(staging) < rows.indexOf(analytics), 'date order');
    assert.ok(staging.startsWith(`| ${day(1)} |`), staging);
    assert.ok(analytics.includes(`| ${eur(79.9)} |`), analytics);
    assert.match(analytics, /\(short by €[\d,.]+\) \|$/);
    assert.ok(
      !rows.some((row) => row.includes('legacy\\-mail') && /€5\.90 \|/.test(row)),
      'legacy-mail is not charged',
    );
    assert.ok(plainText.includes('## Unpaid invoices'), plainText);
    const invoice = h.mock.state.invoices.find((i) => i.status === 'overdue');
    assert.ok(invoice);
    const invoiceRow = markdown
      .split('\n')
      .find((line) => unescaped(line).includes(invoice.number) && line.includes('[Pay]'));
    assert.ok(invoiceRow, markdown);
    assert.match(invoiceRow, /\[Pay\]\(http:\/\/127\.0\.0\.1:\d+\/client\/invoices\/41\)/);
    assert.ok(plainText.includes(`[Add funds or pay on your provider's website](${new URL(h.mock.url).origin}`));
    // The seed's invoices are months overdue: told once (a notice about both), however often they are read again.
    const aboutInvoices = (): number => warnings().filter((m) => m.includes(invoice.number)).length;
    await waitFor(() => aboutInvoices() === 1, 'the notice of the overdue invoices');
    await h.store.refresh(['invoices', 'balance'], 'user');
    await h.store.refresh(['invoices'], 'user');
    await settle();
    assert.equal(aboutInvoices(), 1);
  });

  it('redraws an open forecast when what it shows changes', async () => {
    await vscode.commands.executeCommand('hostingAccount.showForecast');
    const document = await waitFor(
      () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'hosting-account-forecast' && !d.uri.authority),
      'the forecast document',
    );
    const balance = h.mock.state.balance.balance;
    h.mock.state.balance.balance = 1_234.5;
    await h.store.refresh(['balance'], 'user');
    await waitFor(
      () => unescaped(document.getText()).includes(`Balance **${eur(1_234.5)}**`),
      'the open document with the new balance',
    );
    h.mock.state.balance.balance = balance;
    await h.store.refresh(['balance'], 'user');
    await waitFor(() => unescaped(document.getText()).includes(`Balance **${eur(balance)}**`), 'and back');
  });

  it('is quiet when the balance covers everything', async () => {
    const told = warnings().length;
    h.mock.state.balance.balance = 2_000;
    await h.store.refresh(['balance', 'orders', 'invoices'], 'user');
    await waitFor(() => !h.api.statusBar.item.backgroundColor, 'no warning background');
    assert.match(statusTooltip(), /\$\(calendar\) €2,000\.00 covers the renewals until .+ \(\d+ renewals, €[\d,.]+\)/);
    const item = h.api.orders.getTreeItem(await node('analytics-worker'));
    assert.doesNotMatch(String(item.description), /renewal not covered/);
    assert.ok((await tooltipOf('analytics-worker')).includes('$(pass) Covered by your balance'));
    await settle();
    assert.equal(warnings().length, told, warnings().slice(told).join('\n'));
  });

  it('offers Show Invoice for an invoice the balance does not cover', async () => {
    const now = Date.now();
    for (const invoice of h.mock.state.invoices) invoice.status = 'paid';
    const last = h.mock.state.invoices[h.mock.state.invoices.length - 1];
    assert.ok(last);
    last.status = 'unpaid';
    last.due_date = mockDay(now, 5);
    last.amount = 500;
    // Covers the orders (€85.80 in the window), not the invoice after them.
    h.mock.state.balance.balance = 100;
    const before = messages.shown.length;
    // The invoices first: the old ones with the new balance would be other notices.
    await h.store.refresh(['invoices'], 'user');
    await h.store.refresh(['balance'], 'user');
    const shown = await waitFor(
      () => messages.shown.slice(before).find((m) => m.level === 'warning'),
      'the notice of the invoice',
    );
    assert.equal(
      shown.message,
      `Invoice ${last.number} is due on ${day(5, now)}, in 5 days, for ${eur(500)}, and your balance does not cover it: short by ${eur(485.8)}.`,
    );
    assert.deepEqual(shown.options, ['Open Forecast', 'Show Invoice']);
  });

  describe('with two accounts', () => {
    let client: MockApi;

    before(async () => {
      const analytics = h.mock.state.getOrder(1006);
      assert.ok(analytics);
      h.mock.reset();
      await h.store.refresh(['balance', 'orders', 'invoices'], 'user');
      client = await extraMock('second account', {
        keys: [CLIENT_KEY],
        seed: {
          orders: [{ ...analytics, name: 'client-worker' }],
          balance: { balance: 500, currency: 'EUR', credit_limit: 0 },
          invoices: [],
        },
      });
      await h.api.model.registry.update((s) => addAccount(s, { id: CLIENT, label: 'Client', baseUrl: client.url }));
      const account = h.api.model.get(CLIENT);
      assert.ok(account);
      await account.keys.store(CLIENT_KEY);
      await waitFor(() => account.store.hasApiKey, 'the client key');
      await account.store.refresh(['orders', 'balance', 'invoices'], 'user');
      await waitFor(() => account.store.state === 'ready', 'the client account');
    });

    after(async () => {
      const account = h.api.model.get(CLIENT);
      await h.api.model.registry.update((s) => removeAccount(s, CLIENT));
      await account?.keys.delete();
      await client.close();
    });

    it('forecasts each account on its own balance, and names the account', async () => {
      const account = h.api.model.get(CLIENT);
      assert.ok(account);
      assert.equal(account.forecast().coverage.kind, 'covered', 'the client pays its renewal');
      assert.equal(h.account.forecast().coverage.kind, 'short', "the first account's balance does not");
      const [firstRow, clientRow] = await h.api.orders.getChildren();
      assert.ok(firstRow && clientRow);
      const label = (n: OrdersTreeNode) => text(h.api.orders.getTreeItem(n).label);
      const clientWorker = (await h.api.orders.getChildren(clientRow)).find((n) => label(n) === 'client-worker');
      const firstWorker = (await h.api.orders.getChildren(firstRow)).find((n) => label(n) === 'analytics-worker');
      assert.ok(clientWorker && firstWorker);
      assert.doesNotMatch(String(h.api.orders.getTreeItem(clientWorker).description), /renewal not covered/);
      assert.match(String(h.api.orders.getTreeItem(firstWorker).description), /renewal not covered/);
      await vscode.commands.executeCommand('hostingAccount.showForecast', account);
      const document = await waitFor(
        () => vscode.workspace.textDocuments.find((d) => d.uri.authority === CLIENT),
        "the client's forecast",
      );
      assert.match(document.getText(), /^# Renewal forecast: Client\n/);
      assert.ok(unescaped(document.getText()).includes(`**${eur(500)} covers the renewals until`));
    });

    it("names the account in a notice about one of its renewals, on that account's balance", async () => {
      const account = h.api.model.get(CLIENT);
      assert.ok(account);
      const before = warnings().length;
      client.state.balance.balance = 7;
      await account.store.refresh(['balance'], 'user');
      const said = await waitFor(() => warnings().slice(before)[0], "the client account's notice");
      assert.equal(
        said,
        `Account Client: client-worker renews on ${day(3)}, in 3 days, for ${eur(79.9)}, and your balance does not cover it: short by ${eur(72.9)}.`,
      );
      assert.equal(account.forecast().coverage.kind, 'short');
    });

    it('says in an open forecast that its account was removed, rather than failing', async () => {
      const document = await waitFor(
        () => vscode.workspace.textDocuments.find((d) => d.uri.authority === CLIENT),
        "the client's forecast, still open",
      );
      await h.api.model.registry.update((s) => removeAccount(s, CLIENT));
      await waitFor(() => document.getText() === 'This account was removed.\n', 'the removed account said');
      assert.equal(h.api.forecast.provideTextDocumentContent(document.uri), 'This account was removed.\n');
    });
  });
});
