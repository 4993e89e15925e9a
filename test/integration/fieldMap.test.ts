import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ACCOUNTS_STATE_KEY } from '../../src/accounts/accountList';
import { SERVER_MARKS_KEY } from '../../src/accounts/ServerMarks';
import { plain } from '../../src/util/serverText';
import { VMS_FIELD_MAP, vmsFault } from '../mock-api/vmsShape';
import { captureMessages, Harness, stubWindow, waitFor } from './harness';

const ACTION = 'POST /api/v1/orders/:id/action';
const SAVE = 'Save Field Map';

/** What is kept for the first account's map: beside its label in the account list, never in the settings. */
function storedMap(h: Harness): unknown {
  return h.api.context.globalState.get<{ defaultFieldMap?: unknown }>(ACCOUNTS_STATE_KEY)?.defaultFieldMap;
}

/** The list of servers answered with `body`, as it is. */
function rawList(body: string) {
  const headers = { 'Content-Type': 'application/json' };
  return { kind: 'raw' as const, method: 'GET', path: '/api/v1/orders', status: 200, headers, body };
}

/** Teach the Field Map… opens the map to edit; the test types `text` into it, as the user would. */
async function teach(text: string): Promise<vscode.TextDocument> {
  await vscode.commands.executeCommand('hostingAccount.account.editFieldMap');
  const editor = await waitFor(
    () =>
      vscode.window.visibleTextEditors.find(
        (e) => e.document.uri.scheme === 'untitled' && /"pointers"/.test(e.document.getText()),
      ),
    'the field map to open',
  );
  await vscode.window.showTextDocument(editor.document);
  const whole = new vscode.Range(0, 0, editor.document.lineCount, 0);
  await editor.edit((edit) => edit.replace(whole, text));
  return editor.document;
}

describe('a way out when reading fails: the field map, the reasons, what the server sent', function () {
  this.timeout(60_000);
  let h: Harness;
  const restores: Array<() => void> = [];

  before(async () => {
    h = await Harness.start();
  });
  afterEach(async () => {
    restores.splice(0).forEach((restore) => restore());
    h.mock.faults.clear();
    await h.api.model.setFieldMap(h.account.id, undefined);
    for (const editor of vscode.window.visibleTextEditors.filter((e) => e.document.isUntitled)) {
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => {
    await h.dispose();
  });

  it('a palette Stop or Reinstall with the list unreadable says why, with Show Log and Teach the Field Map…', async () => {
    h.mock.faults.add(vmsFault(h.mock.state));
    await h.signIn({ orders: false });
    await h.store.refresh(['orders'], 'user');
    let picks = 0;
    restores.push(stubWindow('showQuickPick', () => (picks++, Promise.resolve(undefined))));
    for (const command of ['hostingAccount.order.stop', 'hostingAccount.order.reinstall']) {
      const messages = captureMessages();
      try {
        await vscode.commands.executeCommand(command);
        await waitFor(() => messages.shown[0], 'the why-message');
      } finally {
        messages.restore();
      }
      const [shown] = messages.shown;
      assert.match(
        shown?.message ?? '',
        /^No servers could be read from 127\.0\.0\.1:\d+: the answer to GET \/api\/v1\/orders /,
      );
      assert.deepEqual(shown?.options, ['Show Log', 'Teach the Field Map…']);
    }
    assert.equal(picks, 0, 'no empty pick');
    assert.equal(h.requests(ACTION).length, 0);
  });

  it('a palette Stop on an account whose list is empty says so without a warning, and picks nothing', async () => {
    h.mock.faults.add(rawList('{"data":[]}'));
    await h.signIn({ orders: false });
    await h.store.refresh(['orders'], 'user');
    const messages = captureMessages();
    try {
      await vscode.commands.executeCommand('hostingAccount.order.stop');
      await waitFor(() => messages.shown[0], 'the why-message');
    } finally {
      messages.restore();
    }
    assert.deepEqual(
      messages.shown.map((m) => [m.level, m.message.replace(/:\d+:/, ':PORT:')]),
      [['info', 'No servers could be read from 127.0.0.1:PORT: the answer to GET /api/v1/orders has no servers.']],
    );
    assert.equal(h.requests(ACTION).length, 0);
  });

  it('a field map reads the unreadable shape: preview, save, rows named, and Stop reaches the right id', async () => {
    h.mock.faults.add(vmsFault(h.mock.state));
    await h.signIn({ orders: false });
    await h.store.refresh(['orders'], 'user');
    assert.equal(h.store.orders.size, 0, 'the general reading cannot place these servers');
    const document = await teach(JSON.stringify(VMS_FIELD_MAP));
    const messages = captureMessages({ warning: SAVE });
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.account.saveFieldMap');
    const modal = messages.shown.find((m) => m.options.includes(SAVE));
    const detail = (modal?.options[0] as { detail?: string } | undefined)?.detail ?? '';
    assert.match(detail, /^web-frontend-01 · Running · 203\.0\.113\.10$/m, 'the preview reads the first server');
    assert.match(detail, /^staging-box · Stopped · 198\.51\.100\.23$/m);
    await waitFor(() => !vscode.window.visibleTextEditors.some((e) => e.document === document), 'the map closed');
    assert.deepEqual(storedMap(h), VMS_FIELD_MAP);
    assert.equal(vscode.workspace.getConfiguration('hostingAccount').get('fieldMap'), undefined);
    await waitFor(() => h.store.orders.size === h.mock.state.orders.length, 'the servers read through the map');
    const nodes = await h.orderNodes();
    assert.deepEqual(
      nodes.map((node) => plain(node.order.label)),
      h.mock.state.orders.map((o) => o.name),
    );
    const target = nodes.find((node) => node.order.state === 'running');
    assert.ok(target);
    await h.setSetting('confirmStopAndRestart', false);
    try {
      await vscode.commands.executeCommand('hostingAccount.order.stop', target);
    } finally {
      await h.setSetting('confirmStopAndRestart', undefined);
    }
    assert.deepEqual(
      h.requests(ACTION).map((r) => [r.orderId, r.body]),
      [[target.id, '{"action":"stop"}']],
    );
  });

  it('Save from the palette never takes, reverts or closes a JSON document the map was not opened in', async () => {
    await h.signIn();
    const mine = await vscode.workspace.openTextDocument({ language: 'json', content: '{}' });
    const editor = await vscode.window.showTextDocument(mine);
    const text = JSON.stringify(VMS_FIELD_MAP);
    await editor.edit((edit) => edit.replace(new vscode.Range(0, 0, mine.lineCount, 0), text));
    const messages = captureMessages({ warning: SAVE });
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.account.saveFieldMap');
    await waitFor(() => messages.shown[0], 'the way forward');
    assert.deepEqual(
      messages.shown.map((m) => [m.level, m.message]),
      [['info', 'Open the field map first: Teach the Field Map… opens it.']],
    );
    assert.equal(vscode.window.activeTextEditor?.document, mine, 'still open');
    assert.equal(mine.getText(), text, 'unsaved edits kept');
    assert.equal(storedMap(h), undefined);
  });

  it('the preview shows a server read at its own path, and says which answers it could not try the map on', async () => {
    h.mock.faults.add(rawList('[1001]'));
    await h.signIn({ orders: false });
    await h.store.refresh(['orders'], 'user');
    await waitFor(() => h.store.orders.size === 1, 'the one server read at its path');
    await teach('{"pointers":{"name":"/name"}}');
    const detail = async (): Promise<string> => {
      const messages = captureMessages();
      try {
        await vscode.commands.executeCommand('hostingAccount.account.saveFieldMap');
        const modal = messages.shown.find((m) => m.options.includes(SAVE));
        return (modal?.options[0] as { detail?: string } | undefined)?.detail ?? '';
      } finally {
        messages.restore();
      }
    };
    assert.match(await detail(), /^One server: web-frontend-01 · \w+ · 203\.0\.113\.10$/m);
    h.mock.faults.clear();
    const long = { data: [{ id: 1001, name: 'web', status: 'running', note: 'x'.repeat(300_000) }] };
    h.mock.faults.add(rawList(JSON.stringify(long)));
    await h.store.refresh(['orders'], 'user');
    const said = await detail();
    assert.match(said, /^The last answer to \/api\/v1\/orders is too long or not JSON: the map is not tried on it\.$/m);
    assert.doesNotMatch(said, /got a string/);
    assert.equal(storedMap(h), undefined, 'nothing saved without Save');
  });

  it('a map that reads ids from another field carries the marks over, and says first which cannot follow', async () => {
    const servers = [
      { id: 'production', serial: 'srv-1', name: 'production', status: 'running' },
      { id: 'staging', serial: 'srv-2', name: 'staging', status: 'stopped' },
    ];
    h.mock.faults.add(rawList(JSON.stringify({ data: servers })));
    await h.signIn({ orders: false });
    await h.store.refresh(['orders'], 'user');
    restores.push(() => void h.api.context.globalState.update(SERVER_MARKS_KEY, undefined));
    await h.account.marks.set('production', { protected: true, pinned: true });
    await h.account.marks.set('gone-box', { label: 'old' });
    await teach('{"pointers":{"id":"/serial"}}');
    const messages = captureMessages({ warning: SAVE });
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.account.saveFieldMap');
    const modal = messages.shown.find((m) => m.options.includes(SAVE));
    const detail = (modal?.options[0] as { detail?: string } | undefined)?.detail ?? '';
    assert.match(detail, /cannot follow them to the IDs this map reads, and will be lost: gone-box\.$/);
    await waitFor(() => h.store.orders.get('srv-1'), 'the servers read by their new ids');
    assert.deepEqual(h.account.marks.of('srv-1'), { protected: true, pinned: true });
    assert.equal(h.account.marks.isProtected('production'), false);
    assert.match(String(h.api.orders.getTreeItem((await h.orderNodes())[0]!).contextValue), /\.protected\.pinned$/);
  });

  it('a broken map (a pointer without its slash) gives the clear reason and changes nothing', async () => {
    await h.signIn();
    const before = { baseUrl: h.account.baseUrl, key: await h.keys.get(), map: storedMap(h) };
    await teach('{"pointers":{"name":"label_text"}}');
    const messages = captureMessages({ warning: SAVE });
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.account.saveFieldMap');
    await waitFor(() => messages.shown[0], 'the reason');
    assert.deepEqual(
      messages.shown.map((m) => [m.level, m.message]),
      [['error', 'The field map\'s "name" is not a JSON Pointer (write it as /data/0/name), so the map was not used.']],
    );
    assert.deepEqual({ baseUrl: h.account.baseUrl, key: await h.keys.get(), map: storedMap(h) }, before);
    assert.equal(h.account.record.fieldMap, undefined);
  });

  it('a row read without name or state says so in its tooltip, with a link to our one command only', async () => {
    h.mock.faults.add(rawList('[{"id": 1001}, {"id": 1002}]'));
    await h.signIn({ orders: false });
    await h.store.refresh(['orders'], 'user');
    const [node] = await h.orderNodes();
    assert.ok(node);
    const item = h.api.orders.getTreeItem(node);
    const tooltip = h.api.orders.resolveTreeItem(item, node).tooltip as vscode.MarkdownString;
    const link =
      /No name and no state were found in this entry: \[Teach the Field Map…\]\(command:hostingAccount\.account\.editFieldMap\?([^)\s]+)\)/.exec(
        tooltip.value,
      );
    assert.ok(link?.[1], tooltip.value);
    assert.deepEqual(tooltip.isTrusted, { enabledCommands: ['hostingAccount.account.editFieldMap'] });
    // The link names the row's account, so with several accounts it does not ask which; a removed one does nothing.
    const args = JSON.parse(decodeURIComponent(link[1])) as [{ accountId: string }];
    assert.deepEqual(args, [{ accountId: h.account.id }]);
    await vscode.commands.executeCommand('hostingAccount.account.editFieldMap', ...args);
    await waitFor(
      () =>
        vscode.window.visibleTextEditors.find((e) => e.document.isUntitled && /"pointers"/.test(e.document.getText())),
      'the field map to open',
    );
    const untitled = (): number => vscode.workspace.textDocuments.filter((d) => d.isUntitled).length;
    const before = untitled();
    await vscode.commands.executeCommand('hostingAccount.account.editFieldMap', { accountId: 'removed-account' });
    assert.equal(untitled(), before, 'nothing opened for an account that is gone');
  });

  it('Show What the Server Sent opens the last answer, the key the server echoed masked', async () => {
    await h.signIn();
    h.mock.faults.add({ kind: 'echoKey', method: 'GET', path: '/api/v1/orders' });
    await h.store.refresh(['orders'], 'user');
    await vscode.commands.executeCommand('hostingAccount.showServerAnswer');
    // The document follows the answers as they arrive: the echo is the last one.
    const editor = await waitFor(
      () =>
        vscode.window.visibleTextEditors.find(
          (e) => e.document.uri.scheme === 'hosting-account-sent' && e.document.getText().includes('invalid_key'),
        ),
      'the answer document',
    );
    const text = editor.document.getText();
    assert.equal(editor.document.languageId, 'json');
    assert.match(text, /"GET \/api\/v1\/orders"/);
    assert.match(text, /"ip": "203\.0\.113\.10"/);
    assert.match(text, /"name": "\*\*\*"/, 'the key the server named a server after is masked');
    assert.match(text, /"escaped_key": "\*\*\*"/, 'and the key written with an escape');
    assert.ok(!text.includes(h.key), 'the key never shows');
    assert.doesNotThrow(() => JSON.parse(text) as unknown);
  });
});
