import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { type Clock, systemClock } from '../api/clock';
import { ApiError } from '../api/errors';
import { forMessage } from '../notify/inert';
import { namedList } from '../notify/namedList';
import { showReport, toReport } from '../notify/report';
import { inAccount, tell } from '../notify/show';
import { MAX_TOLD, type OutsideChange, stillSo } from '../store/outsideChanges';
import { Disposable, toDisposable } from '../util/lifecycle';

/** Changes this close together (one list read, a burst of polls) are told in one notification. */
const GROUP_MS = 1_500;

export interface NotifierActions {
  show(account: Account, id: string): Promise<void>;
  /** Clears the order's badge count. */
  seen(account: Account, id: string): void;
  /** The order now counts on the badge. */
  flag(account: Account, id: string): void;
  history(account: Account, id?: string): Promise<void>;
}

type Step = 'show' | 'start' | 'history';

/** A notice cannot be withdrawn: a button clicked after a read contradicted it checks again before acting. */
export class OutsideChangeNotifier extends Disposable {
  private readonly waiting = new Map<Account, { changes: OutsideChange[]; timer?: unknown }>();

  constructor(
    private readonly model: AccountModel,
    private readonly actions: NotifierActions,
    private readonly clock: Clock = systemClock,
  ) {
    super();
    // Names, addresses, plans and renewal dates go to the history only.
    const told = (value: readonly OutsideChange[]) => value.filter((c) => c.kind !== 'edited');
    this.register(model.onDidSeeChanges(({ account, value }) => this.collect(account, told(value))));
    this.register(
      toDisposable(() => {
        for (const { timer } of this.waiting.values()) if (timer !== undefined) this.clock.clearTimeout(timer);
      }),
    );
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
      // What a read since has undone is not told.
      const still = waiting.changes.filter((change) => stillSo(change, account.store));
      if (still.length && this.model.accountOf(account)) void this.tell(account, still);
    }, GROUP_MS);
  }

  private async tell(account: Account, group: readonly OutsideChange[]): Promise<void> {
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
    const severity = group.some((c) => c.kind === 'stopped' || c.kind === 'suspended') ? 'warning' : 'info';
    // After a key or address change, the same id may name another server.
    const { generation } = account.store;
    const picked = await tell(severity, inAccount(account.shownName(), message), ...steps.map(([, title]) => title));
    const step = steps.find(([, title]) => title === picked)?.[0];
    const first = group.find((c) => c.kind !== 'disappeared');
    // An account removed meanwhile: nothing acts there.
    if (!this.model.accountOf(account)) return;
    if (step === 'history') await this.actions.history(account, one?.id);
    else if (step === 'show' && first) await this.actions.show(account, first.id);
    else if (step === 'start' && first && account.store.generation === generation) await this.start(account, first);
  }

  /** The server is read again: Start goes out only while it is still stopped. */
  private async start(account: Account, change: OutsideChange): Promise<void> {
    const { store } = account;
    this.actions.seen(account, change.id);
    const order = await store
      .orderDetails(change.id, 0)
      .catch((error: unknown) => (isGone(error) ? undefined : store.orders.get(change.id)));
    const who = name(change);
    const not = !order
      ? vscode.l10n.t('{0} is no longer in the account.', who)
      : order.state === 'running'
        ? vscode.l10n.t('{0} is already running.', who)
        : order.state !== 'stopped' && vscode.l10n.t('{0} is no longer stopped: nothing was sent.', who);
    if (not) return void tell('info', inAccount(account.shownName(), not));
    await store
      .runAction(change.id, 'start', 'notice')
      .catch((error: unknown) =>
        showReport(toReport(error, account.baseUrl, 'action'), { account, name: account.shownName() }),
      );
  }
}

function isGone(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'notFound';
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
