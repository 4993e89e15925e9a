import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { type Clock, systemClock } from '../api/clock';
import { forMessage } from '../notify/inert';
import { namedList } from '../notify/namedList';
import { inAccount, tellUntilWithdrawn } from '../notify/show';
import { MAX_TOLD, type OutsideChange, stillSo } from '../store/outsideChanges';
import { Disposable, toDisposable } from '../util/lifecycle';

/** Changes this close together (one list read, a burst of polls) are told in one notification. */
const GROUP_MS = 1_500;
/** Not contributed: only the notices' links run it. */
const NOTICE_COMMAND = 'hostingAccount.outsideChange.step';

export interface NotifierActions {
  show(account: Account, id: string): Promise<void>;
  /** Clears the order's badge count. */
  seen(account: Account, id: string): void;
  /** The order now counts on the badge. */
  flag(account: Account, id: string): void;
  start(account: Account, id: string): Promise<void>;
  history(account: Account, id?: string): Promise<void>;
}

type Step = 'show' | 'start' | 'history';

interface Notice {
  readonly account: Account;
  readonly changes: readonly OutsideChange[];
  readonly withdraw: () => void;
}

/** A notice stays until a read contradicts it, so it never offers what no longer fits. */
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
    this.register(
      model.onDidChange(() => {
        // A removed account's notices too: they are withdrawn.
        const told = [...this.notices.values()].map((notice) => notice.account);
        for (const account of new Set([...model.accounts, ...told])) this.recheck(account);
      }),
    );
    this.register(vscode.commands.registerCommand(NOTICE_COMMAND, (id: number, step: Step) => this.step(id, step)));
    this.register(
      toDisposable(() => {
        for (const { timer } of this.waiting.values()) if (timer !== undefined) this.clock.clearTimeout(timer);
        for (const notice of this.notices.values()) notice.withdraw();
      }),
    );
  }

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
    const withdraw = tellUntilWithdrawn(inAccount(account.shownName(), message), links, () => this.notices.delete(id));
    this.notices.set(id, { account, changes: group, withdraw });
  }

  /** A withdrawn notice's links do nothing. */
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

function oneMessage(change: OutsideChange): string {
  const who = name(change);
  const appeared = vscode.l10n.t('New server in the account: {0}.', who);
  return {
    stopped: vscode.l10n.t('{0} stopped, and not by an action from this window.', who),
    suspended: vscode.l10n.t('{0} was suspended by the provider.', who),
    running: vscode.l10n.t('{0} is running again, started outside this window.', who),
    disappeared: vscode.l10n.t('{0} is no longer in the account.', who),
    appeared,
    edited: appeared,
  }[change.kind];
}

function kindWord(change: OutsideChange): string {
  const appeared = vscode.l10n.t('new');
  return {
    stopped: vscode.l10n.t('stopped'),
    suspended: vscode.l10n.t('suspended'),
    running: vscode.l10n.t('running'),
    disappeared: vscode.l10n.t('removed'),
    appeared,
    edited: appeared,
  }[change.kind];
}

function name(change: OutsideChange): string {
  return forMessage(change.label, 80);
}
