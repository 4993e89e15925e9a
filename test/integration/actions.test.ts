import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import { captureMessages, Harness, stubWindow, waitFor } from './harness';
import { plain } from '../../src/util/serverText';

const ACTION = 'POST /api/v1/orders/:id/action';

describe('order actions', () => {
  let h: Harness;
  const restores: Array<() => void> = [];

  before(async () => {
    h = await Harness.start();
    await h.signIn();
  });
  after(() => h.dispose());
  beforeEach(async () => {
    h.mock.state.reset();
    await h.store.refresh(['orders'], 'user');
    h.mock.clearLog();
  });
  afterEach(() => {
    for (const restore of restores.splice(0)) restore();
  });

  async function node(status: string): Promise<OrderNode> {
    const record = h.mock.state.orders.find((o) => o.status === status);
    assert.ok(record, `a ${status} order in the mock`);
    const nodes = (await h.api.orders.getChildren()) as OrderNode[];
    const found = nodes.find((n) => n.id === String(record.id));
    assert.ok(found);
    return found;
  }

  function answerWarning(answer: string | undefined): Array<{ message: string; options: unknown[] }> {
    const asked: Array<{ message: string; options: unknown[] }> = [];
    restores.push(
      stubWindow('showWarningMessage', (message: string, ...options: unknown[]) => {
        asked.push({ message, options });
        return Promise.resolve(answer);
      }),
    );
    return asked;
  }

  it('starts a stopped order at once, shows it busy, polls it until it runs, then redraws it', async () => {
    const target = await node('stopped');
    const asked = answerWarning(undefined);
    const run = vscode.commands.executeCommand('hostingAccount.order.start', target);
    await waitFor(() => h.store.pending(target.id), 'the pending state');
    const busy = h.api.orders.getTreeItem(target);
    assert.equal(busy.contextValue, 'order.busy.address');
    assert.match(String(busy.description), /^Starting… · /);
    assert.equal((busy.iconPath as vscode.ThemeIcon).id, 'loading~spin');
    await run;
    assert.equal(asked.length, 0, 'start does not ask');
    await waitFor(() => !h.store.pending(target.id), 'the order to settle', 10_000);
    const settled = h.api.orders.getTreeItem(target);
    assert.equal(settled.contextValue, 'order.running.address');
    assert.equal(h.requests(ACTION).length, 1);
    assert.equal(h.requests(ACTION)[0]?.body, '{"action":"start"}');
    assert.ok(h.requests('GET /api/v1/orders/:id').length >= 1, 'the order was polled');
  });

  it('asks before stopping, and sends nothing when the user declines', async () => {
    const target = await node('running');
    const asked = answerWarning(undefined);
    await vscode.commands.executeCommand('hostingAccount.order.stop', target);
    assert.equal(asked.length, 1);
    assert.match(asked[0]?.message ?? '', new RegExp(`Stop ${plain(target.order.label)}\\?`));
    assert.deepEqual((asked[0]?.options[0] as vscode.MessageOptions).modal, true);
    assert.equal(h.requests(ACTION).length, 0);
  });

  it('stops after confirmation and ends stopped', async () => {
    const target = await node('running');
    answerWarning('Stop');
    await vscode.commands.executeCommand('hostingAccount.order.stop', target);
    assert.equal(h.requests(ACTION).length, 1);
    await waitFor(() => !h.store.pending(target.id), 'the stop to settle', 10_000);
    assert.equal(h.api.orders.getTreeItem(target).contextValue, 'order.stopped.address');
  });

  it('does not ask before stopping when the setting says so', async () => {
    await h.setSetting('confirmStopAndRestart', false);
    try {
      const target = await node('running');
      const asked = answerWarning(undefined);
      await vscode.commands.executeCommand('hostingAccount.order.restart', target);
      assert.equal(asked.length, 0);
      assert.equal(h.requests(ACTION).length, 1);
    } finally {
      await h.setSetting('confirmStopAndRestart', undefined);
    }
  });

  it('sends exactly one POST for a double click and for palette + menu at once', async () => {
    const target = await node('stopped');
    const messages = captureMessages();
    restores.push(messages.restore);
    await Promise.all([
      vscode.commands.executeCommand('hostingAccount.order.start', target),
      vscode.commands.executeCommand('hostingAccount.order.start', target),
      vscode.commands.executeCommand('hostingAccount.order.start', target.id),
    ]);
    assert.equal(h.requests(ACTION).length, 1);
    await waitFor(() => !h.store.pending(target.id), 'the start to settle', 10_000);
  });

  describe('reinstall', () => {
    it('sends nothing when the modal is dismissed', async () => {
      const target = await node('running');
      const asked = answerWarning(undefined);
      await vscode.commands.executeCommand('hostingAccount.order.reinstall', target);
      assert.equal(asked.length, 1);
      assert.match(asked[0]?.message ?? '', /erases the server/);
      assert.equal((asked[0]?.options[0] as vscode.MessageOptions).modal, true);
      assert.equal(h.requests(ACTION).length, 0);
    });

    it('sends nothing when the typed name does not match, or the input is dismissed', async () => {
      const target = await node('running');
      answerWarning('Reinstall…');
      let validation: unknown;
      restores.push(
        stubWindow('showInputBox', (options: vscode.InputBoxOptions) => {
          validation = options.validateInput?.('web');
          return Promise.resolve('web');
        }),
      );
      await vscode.commands.executeCommand('hostingAccount.order.reinstall', target);
      assert.match(validation as string, /Type the server's name/);
      restores.pop()?.();
      restores.push(stubWindow('showInputBox', () => Promise.resolve(undefined)));
      await vscode.commands.executeCommand('hostingAccount.order.reinstall', target);
      assert.equal(h.requests(ACTION).length, 0);
    });

    it('sends exactly one POST once the name is typed', async () => {
      const target = await node('running');
      answerWarning('Reinstall…');
      restores.push(stubWindow('showInputBox', () => Promise.resolve(target.order.label)));
      await vscode.commands.executeCommand('hostingAccount.order.reinstall', target);
      assert.equal(h.requests(ACTION).length, 1);
      assert.equal(h.requests(ACTION)[0]?.body, '{"action":"reinstall"}');
      assert.match(String(h.api.orders.getTreeItem(target).description), /^Reinstalling…/);
      await waitFor(() => !h.store.pending(target.id), 'the reinstall to settle', 10_000);
    });
  });

  it('from the palette, offers only the orders an action fits', async () => {
    let offered: string[] = [];
    restores.push(
      stubWindow('showQuickPick', (items: Array<vscode.QuickPickItem & { order: { id: string } }>) => {
        offered = items.map((i) => i.order.id);
        return Promise.resolve(undefined);
      }),
    );
    await vscode.commands.executeCommand('hostingAccount.order.start');
    const stopped = h.mock.state.orders.filter((o) => o.status === 'stopped').map((o) => String(o.id));
    assert.deepEqual(offered.sort(), stopped.sort());
    await vscode.commands.executeCommand('hostingAccount.order.stop');
    const running = h.mock.state.orders.filter((o) => o.status === 'running').map((o) => String(o.id));
    assert.deepEqual(offered.sort(), running.sort());
    assert.equal(h.requests(ACTION).length, 0, 'dismissing the pick sends nothing');
  });

  it('runs the action on the order picked from the palette', async () => {
    const target = await node('stopped');
    restores.push(
      stubWindow('showQuickPick', (items: Array<vscode.QuickPickItem & { order: { id: string } }>) =>
        Promise.resolve(items.find((i) => i.order.id === target.id)),
      ),
    );
    await vscode.commands.executeCommand('hostingAccount.order.start');
    assert.equal(h.requests(ACTION)[0]?.orderId, target.id);
    await waitFor(() => !h.store.pending(target.id), 'the start to settle', 10_000);
  });

  it("shows the server's message when it refuses, and refreshes that order", async () => {
    const target = await node('stopped');
    h.mock.state.setOrderStatus(Number(target.id), 'running');
    const messages = captureMessages();
    restores.push(messages.restore);
    await vscode.commands.executeCommand('hostingAccount.order.start', target);
    await waitFor(() => messages.shown.length > 0, 'an error message');
    assert.equal(messages.shown[0]?.level, 'error');
    assert.match(messages.shown[0]?.message ?? '', /The hosting API refused: .*running/);
    await waitFor(
      () => h.api.orders.getTreeItem(target).contextValue === 'order.running.address',
      'the order to be refreshed',
    );
    assert.equal(h.store.pending(target.id), undefined);
  });

  it('says whether a failed action was sent', async () => {
    const target = await node('stopped');
    const messages = captureMessages();
    restores.push(messages.restore);
    h.mock.faults.add({ kind: 'reset', method: 'POST', times: 1 });
    await vscode.commands.executeCommand('hostingAccount.order.start', target);
    await waitFor(() => messages.shown.length > 0, 'an error message');
    assert.match(messages.shown[0]?.message ?? '', /may have reached the hosting API/);
    assert.equal(h.requests(ACTION).length, 1, 'never retried');
    assert.equal(h.store.pending(target.id), undefined);
  });
});
