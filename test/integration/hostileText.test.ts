/**
 * A server that sends hostile text in every field the extension reads (test/fixtures/hostileText.ts: command links,
 * icon syntax, bidi and zero-width characters, line breaks, HTML, Markdown, lone surrogates, 100,000 characters), driven
 * through every view and command that shows it. Each sink is checked for what it received: no link, no icon of the
 * server's, no invisible character, no line break where one would forge a line, and a bounded length.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import { HOSTILE_TEXTS, INVISIBLE, LINE_BREAK } from '../fixtures/hostileText';
import { type OrderRecord } from '../mock-api/types';
import { captureMessages, captureNotices, fakeInputBox, Harness, stubWindow, waitFor } from './harness';

const text = (name: string): string => {
  const found = HOSTILE_TEXTS.find((h) => h.name === name);
  assert.ok(found, name);
  return found.text;
};

/** Every corpus string as the key of a field, each with a corpus string as its value. */
const hostileFields = Object.fromEntries(
  HOSTILE_TEXTS.map((h, i) => [h.text.slice(0, 200), HOSTILE_TEXTS[(i + 1) % HOSTILE_TEXTS.length]?.text]),
);

function order(id: number, name: string, status: string, ip: string, plan: string, extra: object = {}): OrderRecord {
  return {
    id,
    name,
    status: status as OrderRecord['status'],
    ip,
    plan,
    location: text('bidi isolates'),
    os: text('markdown'),
    cpu: 4,
    ram_gb: 8,
    disk_gb: 160,
    created_at: '2024-01-01T08:00:00Z',
    renews_at: text('icon syntax'),
    price_monthly: 12.9,
    currency: 'EUR',
    ...extra,
  };
}

/** Our own icons, which labels and tooltips may carry; any other `$(` is the server's and must not render. */
const OWN_ICONS =
  /\$\((?:vm-running|vm-outline|vm|loading~spin|circle-slash|warning|account|credit-card|check|copy|person|server|globe|key|trash|output|refresh|file-text|dashboard|calendar|history|pass|info)\)/g;

function inertLabel(where: string, value: string | undefined): void {
  if (value === undefined) return;
  const server = value.replace(OWN_ICONS, '');
  assert.ok(!server.includes('$('), `${where}: icon syntax of the server's in ${JSON.stringify(value.slice(0, 200))}`);
  assert.doesNotMatch(value, INVISIBLE, `${where}: an invisible character`);
  assert.doesNotMatch(value, LINE_BREAK, `${where}: a line break`);
  assert.ok(value.length <= 400, `${where}: ${value.length} characters`);
}

function inertMessage(where: string, value: string): void {
  assert.ok(!value.includes(']('), `${where}: a link in ${JSON.stringify(value.slice(0, 200))}`);
  assert.ok(!value.includes('$('), `${where}: icon syntax`);
  assert.doesNotMatch(value, INVISIBLE, `${where}: an invisible character`);
  assert.ok(value.length <= 2_000, `${where}: ${value.length} characters`);
}

/** Markdown: with every `\x` pair and our own icons taken out, no link, tag, image or icon is left. */
function inertMarkdown(where: string, value: vscode.MarkdownString | string | undefined): void {
  if (value === undefined) return;
  const markdown = typeof value === 'string' ? value : value.value;
  if (typeof value !== 'string') {
    assert.notEqual(value.isTrusted, true, `${where}: trusted Markdown`);
    assert.notEqual(value.supportHtml, true, `${where}: HTML allowed`);
  }
  const bare = markdown.replace(/\\[\s\S]/g, '').replace(OWN_ICONS, '');
  assert.ok(!bare.includes(']('), `${where}: a link`);
  assert.ok(!bare.includes('<'), `${where}: a tag`);
  assert.ok(!bare.includes('$('), `${where}: icon syntax`);
  assert.ok(!/https?:|www\./.test(bare), `${where}: a bare URL would be linked`);
  assert.doesNotMatch(markdown, INVISIBLE, `${where}: an invisible character`);
}

function labelOf(item: vscode.TreeItem): string | undefined {
  return typeof item.label === 'string' ? item.label : item.label?.label;
}

describe('hostile server text in every sink', () => {
  let h: Harness;
  const restores: Array<() => void> = [];

  before(async () => {
    h = await Harness.start({
      seed: {
        account: {
          id: 1,
          name: text('command link'),
          email: text('bidi override'),
          company: text('icon syntax'),
          created_at: text('HTML'),
          tier: text('line breaks'),
        },
        orders: [
          order(7001, text('command link'), 'running', '203.0.113.70', text('icon syntax')),
          order(7002, text('bidi override'), text('line breaks'), '-oProxyCommand=touch /tmp/pwned', text('HTML')),
          order(7003, text('huge'), 'stopped', text('zero-width characters'), text('markdown')),
          order(7004, text('line breaks'), 'running', '203.0.113.74', text('web link'), hostileFields),
        ],
        invoices: [
          {
            id: 1,
            number: text('command link'),
            date: text('bidi override'),
            due_date: text('icon syntax'),
            amount: 10,
            currency: 'EUR',
            status: 'unpaid',
          },
          {
            id: 2,
            number: text('huge'),
            date: '2026-01-01',
            due_date: '2026-01-15',
            amount: 5,
            currency: 'EUR',
            status: 'paid',
          },
        ],
      },
    });
    await h.signIn();
    await h.store.refresh(['balance', 'account', 'invoices'], 'user');
  });
  afterEach(() => {
    for (const restore of restores.splice(0).reverse()) restore();
    h.mock.faults.clear();
  });
  after(() => h.dispose());

  async function node(id: number): Promise<OrderNode> {
    const found = (await h.orderNodes()).find((n) => n.id === String(id));
    assert.ok(found, `order ${id}`);
    return found;
  }

  it('shows rows, tooltips and every expanded field inert', async () => {
    const nodes = await h.orderNodes();
    assert.equal(nodes.length, 4);
    for (const each of nodes) {
      const item = h.api.orders.resolveTreeItem(h.api.orders.getTreeItem(each), each);
      inertLabel(`order ${each.id} label`, labelOf(item));
      inertLabel(`order ${each.id} description`, String(item.description ?? ''));
      inertLabel(`order ${each.id} accessibility`, item.accessibilityInformation?.label);
      inertMarkdown(`order ${each.id} tooltip`, item.tooltip);
      const fields = await h.api.orders.getChildren(each);
      assert.ok(fields.length > 0);
      const ids = new Set<string>();
      const walk = async (list: readonly unknown[]): Promise<void> => {
        for (const field of list as Parameters<typeof h.api.orders.getTreeItem>[0][]) {
          const fieldItem = h.api.orders.getTreeItem(field);
          inertLabel(`field label of ${each.id}`, labelOf(fieldItem));
          inertLabel(`field value of ${each.id}`, String(fieldItem.description ?? ''));
          assert.ok(fieldItem.id && !ids.has(fieldItem.id), `a unique id for every field: ${fieldItem.id}`);
          ids.add(fieldItem.id);
          await walk(await h.api.orders.getChildren(field));
        }
      };
      await walk(fields);
    }
  });

  it('shows invoice rows and tooltips inert', () => {
    const nodes = h.invoiceNodes();
    assert.equal(nodes.length, 2);
    for (const each of nodes) {
      const item = h.api.invoices.resolveTreeItem(h.api.invoices.getTreeItem(each), each);
      inertLabel('invoice label', labelOf(item));
      inertLabel('invoice description', String(item.description ?? ''));
      inertMarkdown('invoice tooltip', item.tooltip);
    }
  });

  it('shows the account in the status bar tooltip inert', () => {
    const { item } = h.api.statusBar;
    inertLabel('status bar text', item.text);
    inertMarkdown('status bar tooltip', item.tooltip);
    assert.match((item.tooltip as vscode.MarkdownString).value, /Run/, 'the name is shown, escaped');
  });

  it("shows this folder's server in the status bar, its tooltip and its actions' title inert", async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the runner opens a folder');
    const titles: string[] = [];
    restores.push(
      stubWindow('showQuickPick', (_items: unknown, options?: vscode.QuickPickOptions) => {
        titles.push(options?.title ?? '');
        return Promise.resolve(undefined);
      }),
    );
    try {
      for (const id of [7001, 7002, 7003, 7004]) {
        await h.api.folders.bind(folder.uri, { accountId: 'default', orderId: String(id) });
        const item = h.api.folderItem.item;
        await waitFor(() => h.api.folderItem.view.kind === 'listed' && h.api.folderItem.visible, `the item for ${id}`);
        inertLabel(`folder item text ${id}`, item.text);
        assert.ok(item.text.length <= 120, `folder item text ${id}: ${item.text.length} characters`);
        inertLabel(`folder item accessibility ${id}`, item.accessibilityInformation?.label);
        inertMarkdown(`folder item tooltip ${id}`, item.tooltip);
        await vscode.commands.executeCommand('hostingAccount.folder.actions');
      }
      assert.equal(titles.length, 4);
      for (const title of titles) inertLabel("the folder server's actions title", title);
    } finally {
      await h.api.folders.unbind(folder.uri);
    }
  });

  it('shows the renewal forecast inert: only our own links, every table row whole', async () => {
    await vscode.commands.executeCommand('hostingAccount.showForecast');
    const document = await waitFor(
      () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'hosting-account-forecast'),
      'the forecast document',
    );
    const markdown = document.getText();
    assert.match(markdown, /Unpaid invoices/);
    // The links we write (an invoice's page, the provider's site) go to the mock; take them out, then nothing is left.
    const origin = new URL(h.mock.url).origin;
    const ours = markdown.split(`](${origin}/`).length - 1;
    assert.ok(ours >= 2, 'a link to pay the unpaid invoice and one to the site');
    const rest = markdown.replace(/\]\(http:\/\/127\.0\.0\.1:\d+\/[^\s)]*\)/g, ']');
    inertMarkdown('forecast document', rest.replace(/^#+ /gm, ''));
    for (const line of markdown.split('\n').filter((l) => l.startsWith('|'))) {
      assert.ok(line.endsWith('|') && !line.endsWith('\\|'), `a whole table row: ${line.slice(0, 200)}`);
    }
  });

  it('tells a renewal the balance does not cover naming the server inert', async () => {
    const messages = captureMessages();
    restores.push(messages.restore);
    await h.setSetting('renewalWarningDays', 7);
    // A month on, every renewal of the seed is due, and the balance pays only some of them.
    const notices = h.api.newRenewalNotices({ now: () => Date.now() + 30 * 86_400_000 });
    restores.push(() => notices.dispose());
    restores.push(() => void h.setSetting('renewalWarningDays', 0));
    const said = await waitFor(() => messages.shown.find((m) => m.level === 'warning'), 'the notice');
    inertMessage('renewal notice', said.message);
  });

  it('says who signed in without a live link', async () => {
    const messages = captureMessages();
    restores.push(messages.restore);
    const input = fakeInputBox([h.key]);
    restores.push(input.restore);
    await vscode.commands.executeCommand('hostingAccount.setApiKey');
    const said = await waitFor(() => messages.shown.find((m) => m.message.includes('API key saved')), 'the message');
    inertMessage('signed in as', said.message);
  });

  it('offers servers in the palette, and the account summary, inert', async () => {
    const picked: vscode.QuickPickItem[][] = [];
    restores.push(
      stubWindow('showQuickPick', (items: vscode.QuickPickItem[]) => {
        picked.push(items);
        return Promise.resolve(undefined);
      }),
    );
    await vscode.commands.executeCommand('hostingAccount.order.showDetails');
    assert.equal(picked[0]?.length, 4);
    for (const item of picked[0] ?? []) {
      inertLabel('pick label', item.label);
      inertLabel('pick description', item.description);
      inertLabel('pick detail', item.detail);
    }
    const window = vscode.window as unknown as Record<string, unknown>;
    const original = window.createQuickPick as () => vscode.QuickPick<vscode.QuickPickItem>;
    let pick: vscode.QuickPick<vscode.QuickPickItem> | undefined;
    window.createQuickPick = () => (pick = original());
    try {
      await vscode.commands.executeCommand('hostingAccount.showAccount');
    } finally {
      window.createQuickPick = original;
    }
    assert.ok(pick);
    assert.ok(pick.items.length > 5);
    for (const item of pick.items) {
      inertLabel('summary label', item.label);
      inertLabel('summary description', item.description);
    }
    inertLabel('summary title', pick.title);
    pick.hide();
  });

  it('asks before Stop and Reinstall naming the server inert, and the typed confirmation too', async () => {
    const messages = captureMessages({ warning: 'Reinstall…' });
    restores.push(messages.restore);
    const boxes: vscode.InputBoxOptions[] = [];
    restores.push(
      stubWindow(
        'showInputBox',
        (options: vscode.InputBoxOptions) => (boxes.push(options), Promise.resolve(undefined)),
      ),
    );
    await h.setSetting('confirmStopAndRestart', true);
    await vscode.commands.executeCommand('hostingAccount.order.stop', await node(7001));
    await vscode.commands.executeCommand('hostingAccount.order.reinstall', await node(7004));
    assert.equal(messages.shown.length, 2);
    for (const shown of messages.shown) {
      inertMessage('confirmation', shown.message);
      inertMessage('confirmation detail', String((shown.options[0] as vscode.MessageOptions).detail ?? ''));
      assert.equal((shown.options[0] as vscode.MessageOptions).modal, true);
    }
    assert.equal(boxes.length, 1);
    inertLabel('reinstall title', boxes[0]?.title);
    inertLabel('reinstall prompt', boxes[0]?.prompt);
    inertLabel('reinstall placeholder', boxes[0]?.placeHolder);
    const validation = boxes[0]?.validateInput?.('no');
    inertLabel('reinstall validation', typeof validation === 'string' ? validation : undefined);
    assert.equal(h.requests('POST /api/v1/orders/:id/action').length, 0, 'nothing sent');
  });

  it('tells a refusal quoting the server inert', async () => {
    await h.setSetting('confirmStopAndRestart', false);
    h.mock.faults.add({
      kind: 'raw',
      method: 'POST',
      path: '/api/v1/orders/7003/action',
      times: 1,
      status: 422,
      body: JSON.stringify({ error: text('icon syntax'), message: text('command link') + text('bidi override') }),
      headers: { 'content-type': 'application/json' },
    });
    const messages = captureMessages();
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.order.start', await node(7003));
    const told = await waitFor(() => messages.shown.find((m) => m.level === 'error'), 'the refusal');
    inertMessage('refusal', told.message);
    assert.match(told.message, /Run/, "the server's words are quoted");
    await h.setSetting('confirmStopAndRestart', undefined);
  });

  it('tells a change made elsewhere naming the server inert', async () => {
    const notices = captureNotices();
    restores.push(notices.restore);
    h.mock.state.setOrderStatus(7004, 'stopped');
    await h.store.refresh(['orders'], 'user');
    const told = await waitFor(() => notices.shown.find((m) => m.message.includes('stopped')), 'the outside change');
    inertMessage('outside change', told.message);
    h.mock.state.setOrderStatus(7004, 'running');
    await h.store.refresh(['orders'], 'user');
  });

  it('writes the history one line per event, the server text in it inert, and exports no formula', async () => {
    const record = h.mock.state.getOrder(7001);
    assert.ok(record);
    const name = record.name;
    record.name = `=HYPERLINK("x")${text('bidi override')}${text('line breaks')}`;
    await h.store.refresh(['orders'], 'user');
    await waitFor(() => h.account.history.last('7001')?.kind === 'edited', 'the rename in the history');
    await vscode.commands.executeCommand('hostingAccount.showHistory');
    const shown = await waitFor(() => vscode.window.activeTextEditor?.document, 'the history');
    const lines = shown.getText().split('\n').slice(2).filter(Boolean);
    assert.equal(lines.length, (await h.account.history.read()).length, 'one line per event');
    for (const line of lines) {
      assert.doesNotMatch(line, INVISIBLE, 'an invisible character');
      assert.ok(line.length <= 400, `${line.length} characters`);
    }
    assert.ok(lines.some((line) => line.includes('Name changed outside this window')));
    const target = vscode.Uri.file(`${h.api.context.globalStorageUri.fsPath}/hostile-export.csv`);
    restores.push(stubWindow('showSaveDialog', () => Promise.resolve(target)));
    await vscode.commands.executeCommand('hostingAccount.exportHistory');
    const csv = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    assert.ok(csv.includes("'=HYPERLINK"), 'the name is there, as text');
    assert.doesNotMatch(csv, /(^|,)"[=+\-@]/m, 'no cell a spreadsheet would run');
    await vscode.workspace.fs.delete(target);
    record.name = name;
    await h.store.refresh(['orders'], 'user');
  });

  it('refuses an address that is not plain, saying so inert, and names its terminal inert', async () => {
    const messages = captureMessages();
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.order.connectSsh', await node(7002));
    const refused = messages.shown.find((m) => m.level === 'error' || m.level === 'info');
    assert.ok(refused, 'the refused address is told');
    inertMessage('refused address', refused.message);
    const names: string[] = [];
    restores.push(
      stubWindow('createTerminal', (options: vscode.TerminalOptions) => {
        names.push(options.name ?? '');
        return { show: () => undefined, dispose: () => undefined };
      }),
    );
    await vscode.commands.executeCommand('hostingAccount.order.connectSsh', await node(7004));
    assert.equal(names.length, 1);
    inertLabel('terminal name', names[0]);
    assert.ok((names[0]?.length ?? 0) <= 70);
  });

  it('answers the assistant with inert JSON', async () => {
    for (const result of [
      await h.api.tools.listOrders.invoke({ input: {}, toolInvocationToken: undefined }),
      await h.api.tools.account.invoke({ input: {}, toolInvocationToken: undefined }),
    ]) {
      const answer = (result.content[0] as vscode.LanguageModelTextPart).value;
      assert.doesNotMatch(answer, INVISIBLE);
      assert.doesNotMatch(answer, LINE_BREAK);
      assert.ok(answer.length < 20_000, `${answer.length} characters`);
      JSON.parse(answer);
    }
  });

  it('shows the details document with invisible characters written as escapes', async () => {
    await vscode.commands.executeCommand('hostingAccount.order.showDetails', await node(7002));
    const document = await waitFor(
      () =>
        vscode.workspace.textDocuments.find(
          (d) => d.uri.scheme === 'hosting-account' && d.uri.path.startsWith('/7002/'),
        ),
      'the details document',
    );
    assert.doesNotMatch(document.getText(), INVISIBLE);
    assert.doesNotMatch(document.uri.path, INVISIBLE);
    assert.equal((JSON.parse(document.getText()) as { name: string }).name, text('bidi override'), 'the same data');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('copies the exact id and says so inert in the status bar', async () => {
    const said: string[] = [];
    restores.push(
      stubWindow('setStatusBarMessage', (message: string) => (said.push(message), { dispose: () => undefined })),
    );
    await vscode.commands.executeCommand('hostingAccount.order.copyId', await node(7001));
    assert.equal(await vscode.env.clipboard.readText(), '7001');
    inertLabel('status bar message', said[0]);
  });

  it('writes no forged line and no invisible character to the log', async () => {
    const log = await h.logText();
    assert.doesNotMatch(log, INVISIBLE);
    for (const line of log.split('\n')) {
      assert.ok(!/^\[info\] \[http\] fake log line/.test(line.trim()), line);
      assert.ok(!line.includes('fake log line') || /^\d{4}-\d{2}-\d{2} /.test(line), `a line of the server's: ${line}`);
    }
  });
});
