import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { ApiError } from '../api/errors';
import { type Order } from '../api/models';
import { type FolderBindings } from '../folder/FolderBindings';
import { type FolderHooks } from '../folder/hooks';
import { type Log } from '../log';
import { findOrder } from '../lm/toolData';
import { forLog, forTerminal, forTerminalName } from '../notify/inert';
import { actionTitle, progressLabel, stateText } from '../notify/orderWords';
import { shortReason } from '../notify/shortReason';
import { Declined } from '../store/errors';
import { type Settled } from '../store/Store';
import { expectedState } from '../store/orders/orderSettling';
import { actionsFor } from '../views/orders/orderPresentation';

export const TASK_TYPE = 'hosting';
const TASK_ACTIONS = ['start', 'stop', 'restart'] as const;
type TaskAction = (typeof TASK_ACTIONS)[number];
const DEFAULT_TIMEOUT_S = 300;
/** The store follows an action for 15 minutes at most. */
const MAX_TIMEOUT_S = 900;

interface Target {
  readonly account: Account;
  readonly order: Order;
}

/** Its sentence is the terminal's last line. */
class TaskFailure extends Error {}

/** A workspace's tasks.json is workspace content: in Restricted Mode none is offered and none runs. */
export class HostingTasks implements vscode.TaskProvider {
  constructor(
    private readonly model: AccountModel,
    private readonly folders: FolderBindings,
    private readonly hooks: FolderHooks,
    private readonly log: Log,
  ) {}

  private get trusted(): boolean {
    return this.hooks.trusted ?? vscode.workspace.isTrusted;
  }

  provideTasks(): vscode.Task[] {
    if (!this.trusted) return [];
    const tasks: vscode.Task[] = [];
    const active = this.folders.active;
    const bound = active && this.model.get(active.binding.accountId)?.store.orders.get(active.binding.orderId);
    for (const action of TASK_ACTIONS) {
      if (!active || !bound) break;
      const name = vscode.l10n.t("{0} this folder's server ({1})", actionTitle(action), forTerminalName(bound.label));
      tasks.push(this.task({ type: TASK_TYPE, action }, active.folder, name));
    }
    for (const account of this.model.accounts) {
      for (const order of account.store.orders.all) {
        if (!account.marks.of(order.id).pinned || order.duplicateId) continue;
        const where = this.model.several ? { account: account.name } : {};
        const suffix = this.model.several ? ` · ${forTerminalName(account.name, 30)}` : '';
        for (const action of TASK_ACTIONS) {
          const name = `${actionTitle(action)} ${forTerminalName(order.label)}${suffix}`;
          tasks.push(
            this.task({ type: TASK_TYPE, action, server: order.id, ...where }, vscode.TaskScope.Workspace, name),
          );
        }
      }
    }
    return tasks;
  }

  resolveTask(task: vscode.Task): vscode.Task {
    return this.task(task.definition, task.scope ?? vscode.TaskScope.Workspace, task.name);
  }

  private task(
    definition: vscode.TaskDefinition,
    scope: vscode.WorkspaceFolder | vscode.TaskScope,
    name: string,
  ): vscode.Task {
    const execution = new vscode.CustomExecution((resolved) =>
      Promise.resolve(new TaskTerminal((out) => this.run(resolved, scope, out))),
    );
    return new vscode.Task(definition, scope, name, TASK_TYPE, execution);
  }

  private async run(
    definition: vscode.TaskDefinition,
    scope: vscode.WorkspaceFolder | vscode.TaskScope,
    out: TaskTerminal,
  ): Promise<number> {
    try {
      if (!this.trusted) {
        throw new TaskFailure(
          vscode.l10n.t('Hosting tasks do not run in Restricted Mode. Trust this workspace first.'),
        );
      }
      const { action, server, account, timeoutMs } = parse(definition);
      const target = await this.target(server, account, typeof scope === 'object' ? scope : undefined);
      return await act(target, action, timeoutMs, out);
    } catch (error) {
      const reason =
        error instanceof TaskFailure
          ? error.message
          : error instanceof ApiError && error.serverMessage
            ? vscode.l10n.t('{0}: {1}', shortReason(error), forTerminal(error.serverMessage, 200))
            : error instanceof ApiError
              ? shortReason(error)
              : forTerminal(String(error), 200);
      this.log.info(`task ${forLog(JSON.stringify(definition), 200)} failed: ${forLog(reason)}`);
      out.line(reason);
      return 1;
    }
  }

  /** The server named (by id, or a name only one server has), else the folder's own; never a guess. */
  private async target(server: string | undefined, accountName: string | undefined, scope?: vscode.WorkspaceFolder) {
    const folder = scope ?? this.folders.activeFolder;
    const binding = server === undefined && folder ? this.folders.bindingOf(folder.uri) : undefined;
    if (server === undefined && !binding) {
      throw new TaskFailure(
        vscode.l10n.t(
          'This folder has no server: name one with "server" in the task, or run "Hosting: Bind This Folder to a Server…".',
        ),
      );
    }
    const accounts = binding
      ? this.model.accounts.filter((a) => a.id === binding.accountId)
      : this.model.accounts.filter((a) => (accountName === undefined ? a.store.hasApiKey : a.name === accountName));
    if (!accounts.length) {
      throw new TaskFailure(
        accountName === undefined
          ? vscode.l10n.t('No hosting account has an API key. Run "Hosting: Set API Key…" first.')
          : vscode.l10n.t('No hosting account is called "{0}".', forTerminal(accountName, 60)),
      );
    }
    const found: Target[] = [];
    for (const account of accounts) {
      const { store } = account;
      if (!store.hasApiKey) {
        throw new TaskFailure(vscode.l10n.t('No API key is set. Run "Hosting: Set API Key…" first.'));
      }
      if (!store.ordersInfo.updatedAt) await store.refresh(['orders'], 'user');
      const { error, updatedAt } = store.ordersInfo;
      if (error && !updatedAt) throw error;
      const id = binding?.orderId ?? server ?? '';
      const order = binding ? store.orders.get(id) : findOrder(store.orders.all, (each) => store.orders.get(each), id);
      if (order) found.push({ account, order });
    }
    const wanted = forTerminal(binding?.name ?? server ?? '', 80);
    if (found.length > 1) {
      throw new TaskFailure(vscode.l10n.t('Several servers are called "{0}": name the account in the task.', wanted));
    }
    if (!found[0]) throw new TaskFailure(vscode.l10n.t('No server "{0}" is in the hosting account.', wanted));
    return found[0];
  }
}

/** Waits on the store's own settling poll: nothing polls for the task. */
async function act({ account, order }: Target, action: TaskAction, timeoutMs: number, out: TaskTerminal) {
  const { store } = account;
  const name = forTerminal(order.label, 80);
  const pending = store.pending(order.id)?.action;
  if (!pending && action !== 'restart' && order.state === expectedState(action)) {
    out.line(
      action === 'start'
        ? vscode.l10n.t('{0} is already running.', name)
        : vscode.l10n.t('{0} is already stopped.', name),
    );
    return 0;
  }
  if (pending && pending !== action) {
    throw new TaskFailure(vscode.l10n.t('{0} is busy with another action: {1}', name, progressLabel(pending)));
  }
  if (!pending && (order.duplicateId || !actionsFor(order.state).includes(action))) {
    throw new TaskFailure(
      vscode.l10n.t('{0} is {1}: {2} does not fit now.', name, stateText(order), actionTitle(action)),
    );
  }
  const started = Date.now();
  let settled: Settled | undefined;
  let wake = (): void => undefined;
  const listeners = [
    store.onDidSettle((value) => {
      if (value.order.id !== order.id) return;
      settled = value;
      wake();
    }),
    store.onDidChangeOrders(() => wake()),
  ];
  let timedOut = false;
  try {
    out.line(
      action === 'start'
        ? vscode.l10n.t('Starting {0}…', name)
        : action === 'stop'
          ? vscode.l10n.t('Stopping {0}…', name)
          : vscode.l10n.t('Restarting {0}…', name),
    );
    if (!pending) {
      await store.runAction(order.id, action, 'task').catch((error: unknown) => {
        if (!(error instanceof Declined)) throw error;
        throw new TaskFailure(vscode.l10n.t('{0} is protected and its name was not typed: nothing was sent.', name));
      });
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timedOut = true;
        resolve();
      }, timeoutMs);
      wake = out.onClose = () => {
        if (!settled && store.pending(order.id) && !out.closed) return;
        clearTimeout(timer);
        resolve();
      };
      wake();
    });
  } finally {
    for (const listener of listeners) listener.dispose();
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  if (settled?.asExpected) {
    out.line(
      action === 'stop'
        ? vscode.l10n.t('{0} is stopped ({1} s).', name, seconds)
        : vscode.l10n.t('{0} is running ({1} s).', name, seconds),
    );
    return 0;
  }
  if (settled?.outcome === 'unreadable') {
    throw new TaskFailure(vscode.l10n.t('{0} took the action, but its state could not be read.', name));
  }
  if (settled) {
    throw new TaskFailure(vscode.l10n.t('{0} did not end as asked: it is now {1}.', name, stateText(settled.order)));
  }
  throw new TaskFailure(
    timedOut
      ? vscode.l10n.t('{0} did not settle within {1} s; the Orders view keeps following it.', name, timeoutMs / 1000)
      : vscode.l10n.t('{0} is no longer followed; the log says why.', name),
  );
}

function parse(definition: vscode.TaskDefinition): {
  action: TaskAction;
  server?: string;
  account?: string;
  timeoutMs: number;
} {
  const { action, server, account, timeout } = definition as Record<string, unknown>;
  if (action === 'reinstall') {
    throw new TaskFailure(
      vscode.l10n.t(
        'Reinstall is never a task: it erases the server. Use "Hosting: Reinstall Server…", which asks for its name.',
      ),
    );
  }
  const known = TASK_ACTIONS.find((each) => each === action);
  if (!known) throw new TaskFailure(vscode.l10n.t('"action" must be start, stop or restart.'));
  const text = (value: unknown): value is string =>
    typeof value === 'string' && value.length > 0 && value.length <= 200;
  const id = typeof server === 'number' ? String(server) : server;
  if (id !== undefined && !text(id)) {
    throw new TaskFailure(vscode.l10n.t('"server" must be the name or ID of a server.'));
  }
  if (account !== undefined && !text(account)) {
    throw new TaskFailure(vscode.l10n.t('"account" must be the name of a hosting account.'));
  }
  const seconds = timeout ?? DEFAULT_TIMEOUT_S;
  if (typeof seconds !== 'number' || !(seconds >= 1 && seconds <= MAX_TIMEOUT_S)) {
    throw new TaskFailure(vscode.l10n.t('"timeout" must be a number of seconds from 1 to {0}.', MAX_TIMEOUT_S));
  }
  return { action: known, server: id, account, timeoutMs: seconds * 1000 };
}

class TaskTerminal implements vscode.Pseudoterminal {
  private readonly writes = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.writes.event;
  private readonly closes = new vscode.EventEmitter<number>();
  readonly onDidClose = this.closes.event;
  closed = false;
  /** The wait ends; the action goes on, followed by the Orders view. */
  onClose = (): void => undefined;

  constructor(private readonly run: (out: TaskTerminal) => Promise<number>) {}

  open(): void {
    void this.run(this).then((code) => this.end(code));
  }

  close(): void {
    this.closed = true;
    this.onClose();
  }

  line(text: string): void {
    if (!this.closed) this.writes.fire(`${text}\r\n`);
  }

  private end(code: number): void {
    if (!this.closed) this.closes.fire(code);
    this.closed = true;
    this.writes.dispose();
    this.closes.dispose();
  }
}
