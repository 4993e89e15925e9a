import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { AccountRegistry } from '../../src/accounts/AccountRegistry';
import { ACCOUNTS_STATE_KEY } from '../../src/accounts/accountList';
import { SERVER_MARKS_KEY } from '../../src/accounts/ServerMarks';
import { type GroupNode } from '../../src/views/orders/GroupNode';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import { plain } from '../../src/util/serverText';
import { captureMessages, Harness, stubWindow, waitFor } from './harness';

const ACTION = 'POST /api/v1/orders/:id/action';

/** The default seed: web-frontend-01 and db-primary run, staging-box and build-runner are stopped. */
const WEB = '1001';
const DB = '1002';
const STAGING = '1003';

describe('servers in your workflow: hosting tasks, protected servers, pins and groups', () => {
  let h: Harness;
  const restores: Array<() => void> = [];

  const folder = (): vscode.WorkspaceFolder => {
    const first = vscode.workspace.workspaceFolders?.[0];
    assert.ok(first, 'the run opens a workspace folder');
    return first;
  };
  const roots = async () => h.api.orders.getChildren();
  const orderNodes = async (): Promise<OrderNode[]> =>
    (await roots()).filter((node): node is OrderNode => 'order' in node);
  const groupNodes = async (): Promise<GroupNode[]> =>
    (await roots()).filter((node): node is GroupNode => 'nodes' in node && 'by' in node);
  const nodeOf = async (id: string): Promise<OrderNode> => {
    // The view's children first: they are what the user sees, and a node is made as they are read.
    await roots();
    const node = h.api.orders.nodeFor(h.account, id);
    assert.ok(node, `the node of ${id}`);
    return node;
  };
  const title = (node: GroupNode): string => h.api.orders.getTreeItem(node).label as string;
  const labels = (nodes: readonly OrderNode[]) => nodes.map((node) => plain(node.order.label));
  const actions = () => h.requests(ACTION).map((r) => `${r.orderId}:${String(r.body)}`);

  /** Tasks as a workspace's tasks.json has them. */
  async function setTasks(tasks: object[] | undefined): Promise<void> {
    const config = vscode.workspace.getConfiguration('tasks', folder().uri);
    await config.update('version', tasks && '2.0.0', vscode.ConfigurationTarget.WorkspaceFolder);
    await config.update('tasks', tasks, vscode.ConfigurationTarget.WorkspaceFolder);
  }

  /** Runs a task as Run Task or a preLaunchTask does, and waits for its exit code. */
  async function runTask(name: string): Promise<number | undefined> {
    let task: vscode.Task | undefined;
    for (let tries = 0; !task; tries++) {
      const tasks = await vscode.tasks.fetchTasks({ type: 'hosting' });
      task = tasks.find((t) => t.name === name);
      if (!task && tries > 50) assert.fail(`no task "${name}" among ${tasks.map((t) => t.name).join(' | ')}`);
      if (!task) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const ended = new Promise<number | undefined>((resolve) => {
      const listener = vscode.tasks.onDidEndTaskProcess((event) => {
        if (event.execution.task.name !== name) return;
        listener.dispose();
        resolve(event.exitCode);
      });
    });
    await vscode.tasks.executeTask(task);
    return ended;
  }

  async function protect(id: string): Promise<void> {
    await vscode.commands.executeCommand('hostingAccount.order.protect', await nodeOf(id));
  }

  /** Answers the input box that asks for a protected server's name; returns the prompts it showed. */
  function typeName(answer: string | undefined): string[] {
    const prompts: string[] = [];
    restores.push(
      stubWindow('showInputBox', (options: vscode.InputBoxOptions) => {
        prompts.push(String(options.prompt));
        return Promise.resolve(answer);
      }),
    );
    return prompts;
  }

  before(async () => {
    h = await Harness.start({ transitionMs: 300 });
    await h.signIn();
    await setTasks([
      { label: 'start staging', type: 'hosting', action: 'start', server: 'staging-box' },
      { label: 'stop web, briefly', type: 'hosting', action: 'stop', server: 'web-frontend-01', timeout: 1 },
      { label: "restart this folder's server", type: 'hosting', action: 'restart' },
      { label: 'stop web', type: 'hosting', action: 'stop', server: WEB },
      { label: 'reinstall web', type: 'hosting', action: 'reinstall', server: WEB },
    ]);
  });
  after(async () => {
    await setTasks(undefined);
    await h.api.folders.unbind(folder().uri);
    for (const [command, arg] of [
      ['filter', 'all'],
      ['sort', 'server'],
      ['group', 'none'],
    ]) {
      await vscode.commands.executeCommand(`hostingAccount.orders.${command}`, arg);
    }
    await h.api.context.globalState.update(SERVER_MARKS_KEY, undefined);
    await h.dispose();
  });
  beforeEach(async () => {
    h.mock.state.reset();
    h.mock.setTransitionMs(300);
    await h.api.context.globalState.update(SERVER_MARKS_KEY, undefined);
    await h.signInWithFreshKey();
    await vscode.commands.executeCommand('hostingAccount.orders.group', 'none');
  });
  afterEach(() => {
    h.api.folderHooks.trusted = undefined;
    for (const restore of restores.splice(0).reverse()) restore();
  });

  describe('hosting tasks', () => {
    it('starts a stopped server from tasks.json, as a preLaunchTask would, and ends 0 once it runs', async () => {
      const code = await runTask('start staging');
      assert.equal(code, 0);
      assert.equal(h.store.orders.get(STAGING)?.state, 'running', 'ended only once the server runs');
      assert.deepEqual(actions(), [`${STAGING}:{"action":"start"}`]);
      assert.match(await h.logText(), new RegExp(`start accepted for order ${STAGING} \\(task\\)`));
    });

    it('ends non-zero when the server does not settle within the timeout, and says why in the log', async () => {
      h.mock.setTransitionMs(60_000);
      const code = await runTask('stop web, briefly');
      assert.notEqual(code, 0);
      assert.equal(h.requests(ACTION).length, 1, 'one POST, never repeated');
      assert.ok(h.store.pending(WEB), 'the store still follows the action');
      assert.match(await h.logText(), /web-frontend-01 did not settle within 1 s/);
    });

    it("acts on this folder's server when the task names none, and refuses Reinstall", async () => {
      await h.api.folders.bind(folder().uri, { accountId: 'default', orderId: DB, name: 'db-primary' });
      assert.equal(await runTask("restart this folder's server"), 0);
      assert.deepEqual(actions(), [`${DB}:{"action":"restart"}`]);
      assert.notEqual(await runTask('reinstall web'), 0);
      assert.equal(h.requests(ACTION).length, 1, 'no reinstall sent');
      assert.match(await h.logText(), /Reinstall is never a task/);
      const offered = (await vscode.tasks.fetchTasks({ type: 'hosting' })).map((t) => t.name);
      // The restart the workspace configured stands for the one offered (same definition), as VS Code does.
      assert.ok(offered.includes("Stop this folder's server (db-primary)"), offered.join(' | '));
      assert.ok(!offered.some((name) => name.startsWith('Reinstall')), offered.join(' | '));
    });

    it('offers start, stop and restart of the pinned servers in Run Task', async () => {
      await vscode.commands.executeCommand('hostingAccount.order.pin', await nodeOf(STAGING));
      const offered = (await vscode.tasks.fetchTasks({ type: 'hosting' })).map((t) => t.name);
      for (const name of ['Start staging-box', 'Stop staging-box', 'Restart staging-box']) {
        assert.ok(offered.includes(name), `${name} in ${offered.join(' | ')}`);
      }
      assert.equal(await runTask('Start staging-box'), 0);
      assert.deepEqual(actions(), [`${STAGING}:{"action":"start"}`]);
    });

    it("ends a task the API refuses with the API's own message, made inert for a terminal", async () => {
      const message = 'A backup of this server is running\u001b[31m; try again later';
      h.mock.faults.add({
        kind: 'raw',
        method: 'POST',
        path: '/api/v1/orders/:id/action',
        status: 409,
        times: 1,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: { code: 'conflict', message } }),
      });
      assert.notEqual(await runTask('stop web'), 0);
      assert.match(
        await h.logText(),
        /failed: refused \(HTTP 409\): A backup of this server is running ?\[31m; try again later/,
      );
    });

    it('in Restricted Mode offers none and runs none of the workspace tasks', async () => {
      await vscode.commands.executeCommand('hostingAccount.order.pin', await nodeOf(STAGING));
      h.api.folderHooks.trusted = false;
      const offered = (await vscode.tasks.fetchTasks({ type: 'hosting' })).map((t) => t.name);
      assert.ok(!offered.includes('Start staging-box'), offered.join(' | '));
      assert.notEqual(await runTask('start staging'), 0);
      assert.equal(h.requests().length, 0, 'not a request');
      assert.match(await h.logText(), /Hosting tasks do not run in Restricted Mode/);
    });
  });

  describe('protected servers', () => {
    it('shows a lock and offers Unprotect; kept per account and order id under a key Settings Sync carries', async () => {
      await protect(WEB);
      const item = h.api.orders.getTreeItem(await nodeOf(WEB));
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'lock');
      assert.match(String(item.contextValue), /^order\.running\.address\.protected$/);
      assert.deepEqual(h.api.context.globalState.get(SERVER_MARKS_KEY), { default: { [WEB]: { protected: true } } });
      let synced: readonly string[] = [];
      const memento = Object.assign(Object.create(h.api.context.globalState) as vscode.Memento, {
        setKeysForSync: (keys: readonly string[]) => (synced = keys),
      });
      new AccountRegistry(memento, h.api.context.secrets).dispose();
      assert.deepEqual([...synced].sort(), [ACCOUNTS_STATE_KEY, SERVER_MARKS_KEY].sort());
      await vscode.commands.executeCommand('hostingAccount.order.unprotect', await nodeOf(WEB));
      assert.equal((h.api.orders.getTreeItem(await nodeOf(WEB)).iconPath as vscode.ThemeIcon).id, 'vm-running');
    });

    it('from the menu, asks for the typed name even with confirmations off, and sends nothing without it', async () => {
      await h.setSetting('confirmStopAndRestart', false);
      restores.push(() => void h.setSetting('confirmStopAndRestart', undefined));
      await protect(WEB);
      const messages = captureMessages();
      restores.push(messages.restore);
      const prompts = typeName(undefined);
      await vscode.commands.executeCommand('hostingAccount.order.stop', await nodeOf(WEB));
      assert.deepEqual(prompts, ['Type "web-frontend-01" to stop this protected server.']);
      assert.equal(h.requests(ACTION).length, 0);
      restores.pop()?.();
      typeName('web-frontend-01');
      await vscode.commands.executeCommand('hostingAccount.order.restart', await nodeOf(WEB));
      assert.deepEqual(actions(), [`${WEB}:{"action":"restart"}`]);
      assert.equal(messages.shown.filter((m) => m.level === 'warning').length, 0, 'no modal on the way');
    });

    it('from the palette, asks for the typed name', async () => {
      await protect(WEB);
      restores.push(
        stubWindow('showQuickPick', (items: Array<vscode.QuickPickItem & { order: { id: string } }>) =>
          Promise.resolve(items.find((item) => item.order.id === WEB)),
        ),
      );
      const prompts = typeName('wrong name');
      await vscode.commands.executeCommand('hostingAccount.order.stop');
      assert.equal(prompts.length, 1);
      assert.equal(h.requests(ACTION).length, 0);
    });

    it('is left out of a bulk stop unless its name is typed, with one confirmation for the rest', async () => {
      await protect(WEB);
      const messages = captureMessages({ warning: 'Stop' });
      restores.push(messages.restore);
      const prompts = typeName(undefined);
      const selection = [await nodeOf(WEB), await nodeOf(DB)];
      await vscode.commands.executeCommand('hostingAccount.order.stop', selection[1], selection);
      const modals = messages.shown.filter((m) => m.level === 'warning');
      assert.equal(modals.length, 1);
      const detail = String((modals[0]?.options[0] as vscode.MessageOptions).detail);
      assert.match(detail, /protected: web-frontend-01/);
      assert.equal(prompts.length, 1, 'asked for the protected one by name');
      assert.deepEqual(actions(), [`${DB}:{"action":"stop"}`]);
    });

    it('asks a stop task for the typed name, and ends non-zero without it', async () => {
      await protect(WEB);
      const prompts = typeName(undefined);
      assert.notEqual(await runTask('stop web'), 0);
      assert.deepEqual(prompts, ['Type "web-frontend-01" to stop this protected server.']);
      assert.equal(h.requests(ACTION).length, 0);
      restores.pop()?.();
      typeName('web-frontend-01');
      assert.equal(await runTask('stop web'), 0);
      assert.deepEqual(actions(), [`${WEB}:{"action":"stop"}`]);
    });

    it('asks any caller of the action path for the typed name, one written after these tests too', async () => {
      await protect(WEB);
      const prompts = typeName(undefined);
      // A caller the extension does not have yet: straight to the store, with no source.
      await assert.rejects(h.store.runAction(WEB, 'stop'), { name: 'Declined' });
      assert.deepEqual(prompts, ['Type "web-frontend-01" to stop this protected server.']);
      assert.equal(h.requests(ACTION).length, 0);
    });

    it('protects, pins and labels a server whose id is __proto__, and its Stop asks for its name', async () => {
      const body = JSON.stringify({ data: [{ id: '__proto__', name: 'proto-box', status: 'running' }] });
      const headers = { 'Content-Type': 'application/json' };
      h.mock.faults.add({ kind: 'raw', method: 'GET', path: '/api/v1/orders', status: 200, headers, body });
      restores.push(() => h.mock.faults.clear());
      await h.store.refresh(['orders'], 'user');
      await protect('__proto__');
      await vscode.commands.executeCommand('hostingAccount.order.pin', await nodeOf('__proto__'));
      typeName('proto');
      await vscode.commands.executeCommand('hostingAccount.order.setLabel', await nodeOf('__proto__'));
      assert.deepEqual(h.account.marks.of('__proto__'), { protected: true, pinned: true, label: 'proto' });
      assert.match(String(h.api.orders.getTreeItem(await nodeOf('__proto__')).contextValue), /\.protected\.pinned$/);
      restores.pop()?.();
      const prompts = typeName(undefined);
      await vscode.commands.executeCommand('hostingAccount.order.stop', await nodeOf('__proto__'));
      assert.deepEqual(prompts, ['Type "proto-box" to stop this protected server.']);
      assert.equal(h.requests(ACTION).length, 0);
    });

    it("is refused by the assistant's tools, which say why and ask the user nothing", async () => {
      await protect(WEB);
      const input = { orderId: WEB, action: 'stop' as const };
      const prepared = h.api.tools.orderAction.prepareInvocation({ input });
      assert.equal(prepared.confirmationMessages, undefined);
      await assert.rejects(
        Promise.resolve(h.api.tools.orderAction.invoke({ input, toolInvocationToken: undefined })),
        /web-frontend-01 is protected: the assistant does not start, stop or restart it/,
      );
      assert.equal(h.requests(ACTION).length, 0);
    });

    it('refuses the assistant a server protected after its confirmation was shown, Start included', async () => {
      const input = { orderId: STAGING, action: 'start' as const };
      const prepared = h.api.tools.orderAction.prepareInvocation({ input });
      assert.ok(prepared.confirmationMessages, 'asked while not protected');
      await protect(STAGING);
      await assert.rejects(
        Promise.resolve(h.api.tools.orderAction.invoke({ input, toolInvocationToken: undefined })),
        /staging-box is protected: the assistant does not start, stop or restart it/,
      );
      assert.equal(h.requests(ACTION).length, 0);
    });
  });

  describe('pins and groups', () => {
    it('puts a pinned server at the top, also when sorted by name and filtered', async () => {
      await vscode.commands.executeCommand('hostingAccount.order.pin', await nodeOf('1004'));
      assert.equal(labels(await orderNodes())[0], 'build-runner');
      await vscode.commands.executeCommand('hostingAccount.orders.sort', 'name');
      assert.deepEqual(labels(await orderNodes()).slice(0, 3), ['build-runner', 'analytics-worker', 'db-primary']);
      await vscode.commands.executeCommand('hostingAccount.orders.filter', 'stopped');
      assert.deepEqual(labels(await orderNodes()), ['build-runner', 'staging-box']);
      await vscode.commands.executeCommand('hostingAccount.orders.filter', 'all');
      await vscode.commands.executeCommand('hostingAccount.orders.sort', 'server');
      await vscode.commands.executeCommand('hostingAccount.order.unpin', await nodeOf('1004'));
      assert.equal(labels(await orderNodes())[0], 'web-frontend-01');
    });

    it('groups by state with counts, filters and sorts inside the groups, and remembers the choice', async () => {
      let offered: string[] = [];
      restores.push(
        stubWindow('showQuickPick', (items: vscode.QuickPickItem[]) => {
          offered = items.map((item) => item.label);
          return Promise.resolve(items.find((item) => item.label === 'By state'));
        }),
      );
      await vscode.commands.executeCommand('hostingAccount.orders.group');
      assert.deepEqual(offered, [
        'No groups',
        'By state',
        'By plan',
        'By location',
        'By renewal month',
        'By your labels',
      ]);
      const groups = await groupNodes();
      const shown = groups.map((g) => `${title(g)} ${g.nodes.length}`);
      assert.deepEqual(shown, [
        'Running 2',
        'Busy (an action under way) 1',
        'Stopped 2',
        'Other (suspended or unknown) 1',
      ]);
      assert.equal(h.api.orders.getTreeItem(groups[0]!).description, '2');
      assert.equal(h.api.orders.getParent(groups[0]!.nodes[0]!), groups[0]);
      await vscode.commands.executeCommand('hostingAccount.orders.filter', 'running');
      await vscode.commands.executeCommand('hostingAccount.orders.sort', 'name');
      const [running, ...rest] = await groupNodes();
      assert.equal(rest.length, 0);
      assert.deepEqual(labels(running!.nodes), ['db-primary', 'web-frontend-01']);
      assert.equal(h.api.ordersView.description, 'running: 2 of 6 · by name · grouped by state');
      assert.equal(h.api.arrangement.arrangement.group, 'state');
      assert.equal(
        (h.api.context.globalState.get('hostingAccount.ordersView.arrangement') as { group?: string }).group,
        'state',
      );
      await vscode.commands.executeCommand('hostingAccount.orders.filter', 'all');
      await vscode.commands.executeCommand('hostingAccount.orders.sort', 'server');
    });

    it('groups by plan, by location and by the labels the user sets', async () => {
      await vscode.commands.executeCommand('hostingAccount.orders.group', 'plan');
      assert.deepEqual(
        (await groupNodes()).map((g) => title(g)),
        ['Dedicated AX41', 'VPS L', 'VPS M', 'VPS S', 'VPS XL'],
      );
      await vscode.commands.executeCommand('hostingAccount.orders.group', 'location');
      const helsinki = (await groupNodes()).find((g) => g.key === 'Helsinki');
      assert.deepEqual(labels(helsinki?.nodes ?? []), ['build-runner']);
      typeName('  prod  ');
      await vscode.commands.executeCommand('hostingAccount.order.setLabel', await nodeOf(DB));
      await vscode.commands.executeCommand('hostingAccount.orders.group', 'label');
      const byLabel = await groupNodes();
      assert.deepEqual(
        byLabel.map((g) => `${title(g)} ${g.nodes.length}`),
        ['prod 1', 'No label 5'],
      );
      assert.match(String(h.api.orders.getTreeItem(await nodeOf(DB)).description), /prod/);
    });

    it("shows a server's hostile plan and location in a group row only inert", async () => {
      const record = h.mock.state.getOrder(DB);
      assert.ok(record);
      record.plan = '\u202e$(alert) [evil](command:x)\nplan';
      record.location = `\u001b[2J${'L'.repeat(500)}`;
      await h.store.refresh(['orders'], 'user');
      for (const by of ['plan', 'location']) {
        await vscode.commands.executeCommand('hostingAccount.orders.group', by);
        const group = (await groupNodes()).find((g) => g.nodes.some((n) => n.id === DB));
        assert.ok(group, `the group of db-primary by ${by}`);
        const shown = title(group);
        const unsafe = ['$(', '\u202e', '\n', '\u001b'].filter((part) => shown.includes(part));
        assert.deepEqual(unsafe, [], shown);
        assert.ok([...shown].length <= 60, shown);
      }
    });

    it('runs a group node action on its servers as a bulk action: one confirmation, the protected one left out', async () => {
      await protect(WEB);
      await vscode.commands.executeCommand('hostingAccount.orders.group', 'state');
      const running = (await groupNodes()).find((g) => g.key === 'running');
      assert.ok(running);
      assert.equal(h.api.orders.getTreeItem(running).contextValue, 'orderGroup');
      const messages = captureMessages({ warning: 'Stop' });
      restores.push(messages.restore);
      typeName(undefined);
      await vscode.commands.executeCommand('hostingAccount.order.stop', running);
      assert.equal(messages.shown.filter((m) => m.level === 'warning').length, 1);
      assert.deepEqual(actions(), [`${DB}:{"action":"stop"}`]);
      await waitFor(() => !h.store.pending(DB), 'the stop to settle', 10_000);
    });
  });
});
