import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { type Clock, systemClock } from '../api/clock';
import { forMessage } from '../notify/inert';
import { namedList } from '../notify/namedList';
import { tellUntilWithdrawn } from '../notify/show';
import { MAX_TOLD, type OutsideChange, stillSo } from '../store/outsideChanges';
import { Disposable, toDisposable } from '../util/lifecycle';

/** Changes that arrive this close together (one list read, a burst of polls) are told in one notification. */
export const GROUP_MS = 1_500;
/** Not contributed: the notices' links run it with the notice and the step. */
export const NOTICE_COMMAND = 'hostingAccount.outsideChange.step';

export interface NotifierActions {
  /** Shows the order in the Orders view (clearing a filter that hides it). */
  show(account: Account, id: string): Promise<void>;
  /** The user has seen this order's change (clears its badge count). */
  seen(account: Account, id: string): void;
  /** An order stopped from outside: it now counts on the badge. */
  flag(account: Account, id: string): void;
  /** Starts the order (the Start button), in its account. */
  start(account: Account, id: string): Promise<void>;
  /** Opens the history of the order, or of the account. */
  history(account: Account, id?: string): Promise<void>;
}

type Step = 'show' | 'start' | 'history';

interface Notice {
  readonly account: Account;
  readonly changes: readonly OutsideChange[];
  readonly withdraw: () => void;
}

/**
 * Tells the user about changes no action of this window explains, one notice per change, or one for a group arriving
 * together, with Show and the step that fits; every account alike, named when there are several. A notice stays until
 * a read contradicts it (the server runs again, say), so it never offers what no longer fits. The user's own actions
 * are never told here: the store marks them pending until they settle, and their outcome has its own message.
 */
export class OutsideChangeNotifier extends Disposable {
  private readonly waiting = new Map<Account, { changes: OutsideChange[]; timer?: unknown }>();
  private readonly notices = new Map<number, Notice>();
  private count = 0;

  constructor(
    private readonly model: AccountModel,
    private readonly actions: NotifierActions,
    private readonly clock: Clock = systemClock,
  ) {
    super();
    // Names, addresses, plans and renewal dates go to the history only.
    const told = (value: readonly OutsideChange[]) => value.filter((c) => c.kind !== 'edited');
    this.register(model.onDidSeeChanges(({ account, value }) => this.collect(account, told(value))));
    this.register(model.onDidChangeOrders(({ account }) => this.recheck(account)));
    this.register(model.onDidChangeState((account) => this.recheck(account)));
    this.register(model.onDidChangeData(({ account, value }) => value === 'orders' && this.recheck(account)));
    this.register(model.onDidChange(() => model.accounts.forEach((account) => this.recheck(account))));
    this.register(vscode.commands.registerCommand(NOTICE_COMMAND, (id: number, step: Step) => this.step(id, step)));
    this.register(
      toDisposable(() => {
        for (const { timer } of this.waiting.values()) if (timer !== undefined) this.clock.clearTimeout(timer);
        for (const notice of this.notices.values()) notice.withdraw();
      }),
    );
  }

  /** Withdraws the notices (and forgets the changes about to be told) that the account's data now contradicts. */
  private recheck(account: Account): void {
    const live = this.model.accountOf(account) !== undefined;
    const so = (change: OutsideChange): boolean => live && stillSo(change, account.store);
    const waiting = this.waiting.get(account);
    if (waiting) waiting.changes = waiting.changes.filter(so);
    for (const notice of this.notices.values()) {
      if (notice.account === account && !notice.changes.every(so)) notice.withdraw();
    }
  }

  private collect(account: Account, changes: readonly OutsideChange[]): void {
    if (!changes.length) return;
    for (const change of changes) {
      if (change.kind === 'stopped' || change.kind === 'suspended') this.actions.flag(account, change.id);
    }
    let waiting = this.waiting.get(account);
    if (!waiting) this.waiting.set(account, (waiting = { changes: [] }));
    // A later change of the same order replaces the earlier one: only where it ended matters.
    const ids = new Set(changes.map((c) => c.id));
    waiting.changes = [...waiting.changes.filter((c) => !ids.has(c.id)), ...changes];
    waiting.timer ??= this.clock.setTimeout(() => {
      this.waiting.delete(account);
      // An account removed meanwhile is not told about.
      if (waiting.changes.length && this.model.accountOf(account)) this.tell(account, waiting.changes);
    }, GROUP_MS);
  }

  private tell(account: Account, group: readonly OutsideChange[]): void {
    const one = group.length === 1 ? group[0] : undefined;
    const named = namedList(
      group.slice(0, MAX_TOLD).map((c) => `${name(c)} (${kindWord(c)})`),
      group.length,
    );
    const message = one
      ? oneMessage(one)
      : vscode.l10n.t('{0} servers changed outside this window: {1}', group.length, named);
    const steps: Array<[Step, string]> = [['history', vscode.l10n.t('Show History')]];
    if (one?.kind === 'stopped') steps.unshift(['start', vscode.l10n.t('Start')]);
    if (group.some((c) => c.kind !== 'disappeared')) steps.unshift(['show', vscode.l10n.t('Show')]);
    const id = ++this.count;
    const links = steps.map(([step, title]) => ({ title, command: NOTICE_COMMAND, args: [id, step] }));
    const withdraw = tellUntilWithdrawn(inAccount(account, message), links, () => this.notices.delete(id));
    this.notices.set(id, { account, changes: group, withdraw });
  }

  /** A link of a notice still shown (a withdrawn one's links do nothing). */
  private async step(id: number, step: Step): Promise<void> {
    const notice = this.notices.get(id);
    if (!notice) return;
    const { account, changes } = notice;
    const first = changes.find((c) => c.kind !== 'disappeared');
    if (step === 'history') await this.actions.history(account, changes.length === 1 ? changes[0]?.id : undefined);
    else if (step === 'show' && first) await this.actions.show(account, first.id);
    else if (step === 'start' && first) {
      this.actions.seen(account, first.id);
      await this.actions.start(account, first.id);
    }
  }
}

function inAccount(account: Account, message: string): string {
  const name = account.shownName();
  return name ? vscode.l10n.t('Account {0}: {1}', forMessage(name, 60), message) : message;
}

function oneMessage(change: OutsideChange): string {
  switch (change.kind) {
    case 'stopped':
      return vscode.l10n.t('{0} stopped, and not by an action from this window.', name(change));
    case 'suspended':
      return vscode.l10n.t('{0} was suspended by the provider.', name(change));
    case 'running':
      return vscode.l10n.t('{0} is running again, started outside this window.', name(change));
    case 'disappeared':
      return vscode.l10n.t('{0} is no longer in the account.', name(change));
    case 'appeared':
    case 'edited':
      return vscode.l10n.t('New server in the account: {0}.', name(change));
  }
}

function kindWord(change: OutsideChange): string {
  switch (change.kind) {
    case 'stopped':
      return vscode.l10n.t('stopped');
    case 'suspended':
      return vscode.l10n.t('suspended');
    case 'running':
      return vscode.l10n.t('running');
    case 'disappeared':
      return vscode.l10n.t('removed');
    case 'appeared':
    case 'edited':
      return vscode.l10n.t('new');
  }
}

/** Server text, bounded and inert: a name of any length or form must not flood or take over the notification. */
function name(change: OutsideChange): string {
  return forMessage(change.label, 80);
}
