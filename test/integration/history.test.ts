import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { History, type HistoryEvent } from '../../src/accounts/History';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import { captureMessages, captureNotices, clickStep, Harness, stubWindow, waitFor } from './harness';

/** A time of day as the history shows it in English (12-hour, with AM or PM). */
const TIME = String.raw`\d\d?:\d\d(?:\s?[AP]M)?`;

describe("each server's history", () => {
  let h: Harness;
  const restores: Array<() => void> = [];
  /** The journal is the account's, kept across suites: a test reads only what happened since it began. */
  let began = 0;

  before(async () => {
    h = await Harness.start({ transitionMs: 200 });
    await h.signIn();
  });
  after(() => h.dispose());
  beforeEach(async () => {
    h.mock.state.reset();
    await h.signInWithFreshKey();
    began = Date.now();
  });
  afterEach(() => {
    for (const restore of restores.splice(0).reverse()) restore();
  });

  const node = async (id: number): Promise<OrderNode> => {
    const found = (await h.orderNodes()).find((n) => n.id === String(id));
    assert.ok(found, `order ${id}`);
    return found;
  };
  const events = async (id: number): Promise<HistoryEvent[]> =>
    (await h.account.history.read()).filter((e) => e.id === String(id) && e.at >= began);
  /** The lines of the server's history document, without its heading. */
  const shownHistory = async (id: number): Promise<string[]> => {
    await vscode.commands.executeCommand('hostingAccount.showHistory', await node(id));
    const editor = await waitFor(() => vscode.window.activeTextEditor, 'the history document');
    assert.equal(editor.document.uri.scheme, 'hosting-account-history');
    return editor.document.getText().split('\n').slice(2).filter(Boolean);
  };
  let others: () => ReturnType<typeof captureNotices>['others'] = () => [];
  const notices = () => {
    const captured = captureNotices();
    restores.push(captured.restore);
    others = () => captured.others;
    return captured.shown;
  };

  it('keeps an action from the menu, an outside change and an action of the assistant, each with its source', async () => {
    const messages = captureMessages({ warning: 'Stop' });
    restores.push(messages.restore);
    const shown = notices();
    // The menu: a stop of web-frontend-01, confirmed.
    await vscode.commands.executeCommand('hostingAccount.order.stop', await node(1001));
    await waitFor(() => !h.store.pending('1001'), 'the stop to settle', 10_000);
    // Outside: db-primary stops elsewhere.
    h.mock.state.setOrderStatus(1002, 'stopped');
    await h.store.refresh(['orders'], 'user');
    await waitFor(() => shown.length > 0, 'the notice');
    // The assistant: a start of staging-box.
    const input = { orderId: '1003', action: 'start' as const };
    h.api.tools?.orderAction.prepareInvocation({ input });
    await h.api.tools?.orderAction.invoke({ input, toolInvocationToken: undefined });
    await waitFor(() => !h.store.pending('1003'), 'the start to settle', 10_000);

    const summary = (e: HistoryEvent) => [e.kind, e.action, e.source, e.to].filter(Boolean).join(' ');
    assert.deepEqual((await events(1001)).map(summary), ['sent stop menu', 'settled stop menu stopped']);
    assert.deepEqual((await events(1002)).map(summary), ['stopped stopped']);
    assert.deepEqual((await events(1003)).map(summary), ['sent start assistant', 'settled start assistant running']);

    // Newest first: what this test did is on top.
    const menu = await shownHistory(1001);
    assert.match(menu[0] ?? '', new RegExp(`^today ${TIME} +web-frontend-01 +Stop settled: Stopped after \\d+ s$`));
    assert.match(menu[1] ?? '', /web-frontend-01 +Stop sent from the menu: accepted$/);
    assert.match(
      (await shownHistory(1002))[0] ?? '',
      new RegExp(
        `db-primary +Stopped outside this window, was Running \\((seen between ${TIME} and|between two reads at) ${TIME}\\)$`,
      ),
    );
    assert.match((await shownHistory(1003))[1] ?? '', /staging-box +Start sent by the assistant: accepted$/);

    // The row's tooltip has its last event.
    const row = await node(1001);
    const tooltip = h.api.orders.resolveTreeItem(h.api.orders.getTreeItem(row), row).tooltip as vscode.MarkdownString;
    // Markdown, escaped: read without the escapes.
    assert.match(
      tooltip.value.replace(/\\/g, ''),
      new RegExp(`\\$\\(history\\) today ${TIME}: Stop settled: Stopped after \\d+ s`),
    );

    // The outside change's notice opens the history of that server.
    clickStep(shown[0]!, 'Show History');
    await waitFor(
      () => vscode.window.activeTextEditor?.document.getText().includes('db-primary'),
      "db-primary's history",
    );
    assert.ok(!vscode.window.activeTextEditor?.document.getText().includes('web-frontend-01'), 'that server only');

    // After a restart: another journal reading the same file has all of it.
    const file = h.account.history.file;
    assert.ok(file);
    const ours = (all: HistoryEvent[]) => all.filter((e) => e.at >= began).map((e) => `${e.id} ${summary(e)}`);
    const restarted = ours(await new History(file, Date.now, (error) => assert.fail(String(error))).read());
    assert.equal(restarted.length, 5);
    assert.deepEqual(restarted, ours(await h.account.history.read()));
  });

  it('exports the history as CSV or JSON', async () => {
    h.mock.state.setOrderStatus(1002, 'stopped');
    await h.store.refresh(['orders'], 'user');
    await waitFor(() => (h.account.history.last('1002')?.at ?? 0) >= began, 'the change in the history');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-'));
    try {
      for (const name of ['history.csv', 'history.json']) {
        const target = vscode.Uri.file(path.join(dir, name));
        restores.push(stubWindow('showSaveDialog', () => Promise.resolve(target)));
        await vscode.commands.executeCommand('hostingAccount.exportHistory', await node(1002));
        restores.pop()?.();
        const text = fs.readFileSync(target.fsPath, 'utf8');
        if (name.endsWith('.csv')) {
          const lines = text.trim().split('\r\n');
          assert.equal(lines[0], '"time","server id","server","event"');
          assert.match(
            lines.at(-1) ?? '',
            /^"\d{4}-\d\d-\d\dT[\d:.]+Z","1002","db-primary","Stopped outside this window/,
          );
        } else {
          const rows = JSON.parse(text) as Array<{ id: string; kind: string; time: string; event: string }>;
          assert.ok(rows.every((r) => r.id === '1002'));
          assert.deepEqual(
            { ...rows.at(-1), time: undefined, at: undefined, since: undefined },
            {
              id: '1002',
              kind: 'stopped',
              name: 'db-primary',
              from: 'running',
              to: 'stopped',
              event: rows.at(-1)?.event,
              time: undefined,
              at: undefined,
              since: undefined,
            },
          );
          assert.match(rows.at(-1)?.event ?? '', /^Stopped outside this window, was Running/);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is told of a change made elsewhere in a plain notification with buttons, and its Start is recorded as sent from a notification', async () => {
    const shown = notices();
    h.mock.state.setOrderStatus(1002, 'stopped');
    await h.store.refresh(['orders'], 'user');
    const stopped = await waitFor(() => shown[0], 'the notice of the stop');
    assert.equal(stopped.level, 'warning');
    assert.equal(stopped.message, 'db-primary stopped, and not by an action from this window.');
    assert.deepEqual(stopped.buttons, ['Show', 'Start', 'Show History']);
    h.mock.clearLog();
    clickStep(stopped, 'Start');
    await waitFor(() => h.requests('POST /api/v1/orders/:id/action').length === 1, 'the Start');
    await waitFor(() => !h.store.pending('1002'), 'the start to settle', 10_000);
    const summary = (e: HistoryEvent) => [e.kind, e.action, e.source].filter(Boolean).join(' ');
    assert.deepEqual((await events(1002)).map(summary), ['stopped', 'sent start notice', 'settled start notice']);
    // The document may have been open before: it follows the journal.
    await vscode.commands.executeCommand('hostingAccount.showHistory', await node(1002));
    await waitFor(
      () =>
        /db-primary +Start sent from a notification: accepted$/m.test(
          vscode.window.activeTextEditor?.document.getText() ?? '',
        ),
      'the Start in the history document',
    );
  });

  it("a notice's Start after a read showed the server running again reads it again, says so and sends nothing", async () => {
    const shown = notices();
    h.mock.state.setOrderStatus(1002, 'stopped');
    await h.store.refresh(['orders'], 'user');
    const stopped = await waitFor(() => shown[0], 'the notice of the stop');
    h.mock.state.setOrderStatus(1002, 'running');
    await h.store.refresh(['orders'], 'user');
    const running = await waitFor(() => shown[1], 'the notice that it runs again');
    assert.match(running.message, /db-primary is running again/);
    assert.deepEqual(running.buttons, ['Show', 'Show History'], 'no Start for a running server');
    h.mock.clearLog();
    clickStep(stopped, 'Start');
    // Told once the server was read again and nothing was sent.
    const said = await waitFor(() => others().find((m) => m.message.includes('db-primary')), 'the answer');
    assert.equal(said.message, 'db-primary is already running.');
    assert.deepEqual(
      h.requests('GET /api/v1/orders/:id').map((r) => r.rawPath),
      ['/api/v1/orders/1002'],
      'read again',
    );
    assert.equal(h.requests('POST /api/v1/orders/:id/action').length, 0, 'nothing sent');
    assert.deepEqual(
      (await events(1002)).map((e) => e.kind),
      ['stopped', 'running'],
    );
  });

  it('records a Stop sent in another window of this machine once, and tells it nowhere as made outside', async () => {
    const shown = notices();
    const file = h.account.history.file;
    assert.ok(file);
    // The other window shares the journal file: its Stop of web-frontend-01, accepted, then settled.
    const other = new History(file, Date.now, (error) => assert.fail(String(error)));
    other.append([{ at: Date.now(), id: '1001', kind: 'sent', action: 'stop', source: 'menu' }]);
    h.mock.state.setOrderStatus(1001, 'stopped');
    other.append([{ at: Date.now(), id: '1001', kind: 'settled', action: 'stop', source: 'menu', to: 'stopped' }]);
    await other.read();
    await h.store.refresh(['orders'], 'user');
    await waitFor(() => h.store.orders.get('1001')?.state === 'stopped', 'the stop read here');
    // Then a change nobody here made: recorded and told after anything the first read would have caused.
    h.mock.state.setOrderStatus(1002, 'stopped');
    await h.store.refresh(['orders'], 'user');
    await waitFor(() => (h.account.history.last('1002')?.at ?? 0) >= began, 'the stop of db-primary in the history');
    assert.deepEqual(
      (await events(1001)).map((e) => `${e.kind} ${e.action ?? ''}`),
      ['sent stop', 'settled stop'],
      'recorded once, by the window that sent it',
    );
    await waitFor(() => shown.length > 0, 'the notice of db-primary');
    assert.deepEqual(
      shown.map((n) => n.message),
      ['db-primary stopped, and not by an action from this window.'],
    );
    assert.equal(h.api.ordersView.badge?.value, 2, 'the suspended server and db-primary, not web-frontend-01');
  });
});
