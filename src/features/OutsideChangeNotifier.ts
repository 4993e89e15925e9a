import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { type Clock, systemClock } from '../api/clock';
import { forMessage } from '../notify/inert';
import { namedList } from '../notify/namedList';
import { tell } from '../notify/show';
import { MAX_TOLD, type OutsideChange, OutsideChangeDetector } from '../store/outsideChanges';
import { Disposable, toDisposable } from '../util/lifecycle';

/** Changes that arrive this close together (one list read, a burst of polls) are told in one notification. */
export const GROUP_MS = 1_500;

export interface NotifierActions {
  /** Shows the order in the Orders view (clearing a filter that hides it). */
  show(account: Account, id: string): Promise<void>;
  /** The user has seen this order's change (clears its badge count). */
  seen(account: Account, id: string): void;
  /** An order stopped from outside: it now counts on the badge. */
  flag(account: Account, id: string): void;
  /** Starts the order (the Start button), in its account. */
  start(account: Account, id: string): Promise<void>;
}

interface Watched {
  readonly detector: OutsideChangeDetector;
  waiting: OutsideChange[];
  timer?: unknown;
}

/**
 * Tells the user about changes no action of this window explains, one notification per change, or one for a group
 * arriving together, each with [Show] and the action that fits; every account alike, named when there are several.
 * The user's own actions are never told here: the store marks them pending until they settle, and their outcome has
 * its own message.
 */
export class OutsideChangeNotifier extends Disposable {
  private readonly watched = new WeakMap<Account, Watched>();

  constructor(
    private readonly model: AccountModel,
    private readonly actions: NotifierActions,
    private readonly clock: Clock = systemClock,
  ) {
    super();
    const check = (account: Account): void => {
      const watched = this.watchedOf(account);
      // Signed out, or another key or server: what was about to be told belongs to the account that is gone.
      if (account.store.ordersInfo.updatedAt === undefined) watched.waiting = [];
      this.collect(account, watched, watched.detector.check());
    };
    this.register(model.onDidChangeOrders(({ account }) => check(account)));
    this.register(model.onDidChangeState((account) => check(account)));
    // A list read again unchanged (after a new key, say) announces no orders change, but it is the new baseline.
    this.register(model.onDidChangeData(({ account, value }) => value === 'orders' && check(account)));
    this.register(model.onDidChange(() => model.accounts.forEach((account) => this.watchedOf(account))));
    this.register(
      toDisposable(() => {
        for (const account of model.accounts) {
          const timer = this.watched.get(account)?.timer;
          if (timer !== undefined) this.clock.clearTimeout(timer);
        }
      }),
    );
    for (const account of model.accounts) this.watchedOf(account);
  }

  /** An account's detector, made (with the list it has now as its baseline) the first time it is asked for. */
  private watchedOf(account: Account): Watched {
    let watched = this.watched.get(account);
    if (!watched) {
      const detector = new OutsideChangeDetector(account.store, () => this.clock.now());
      detector.check();
      this.watched.set(account, (watched = { detector, waiting: [] }));
    }
    return watched;
  }

  private collect(account: Account, watched: Watched, changes: readonly OutsideChange[]): void {
    if (!changes.length) return;
    for (const change of changes) {
      if (change.kind === 'stopped' || change.kind === 'suspended') this.actions.flag(account, change.id);
    }
    // A later change of the same order replaces the earlier one: only where it ended matters.
    const ids = new Set(changes.map((c) => c.id));
    watched.waiting = [...watched.waiting.filter((c) => !ids.has(c.id)), ...changes];
    watched.timer ??= this.clock.setTimeout(() => {
      watched.timer = undefined;
      const group = watched.waiting.splice(0);
      // An account removed meanwhile is not told about.
      if (group.length && this.model.accountOf(account)) void this.tell(account, group);
    }, GROUP_MS);
  }

  private async tell(account: Account, group: readonly OutsideChange[]): Promise<void> {
    if (group.length === 1 && group[0]) return this.tellOne(account, group[0]);
    const show = vscode.l10n.t('Show');
    const named = namedList(
      group.slice(0, MAX_TOLD).map((c) => `${name(c)} (${kindWord(c)})`),
      group.length,
    );
    const message = inAccount(
      account,
      vscode.l10n.t('{0} servers changed outside this window: {1}', group.length, named),
    );
    const worse = group.some((c) => c.kind === 'stopped' || c.kind === 'suspended' || c.kind === 'disappeared');
    const answer = await tell(worse ? 'warning' : 'info', message, show);
    const first = group.find((c) => c.kind !== 'disappeared');
    if (answer === show && first) await this.actions.show(account, first.id);
  }

  private async tellOne(account: Account, change: OutsideChange): Promise<void> {
    const show = vscode.l10n.t('Show');
    const start = vscode.l10n.t('Start');
    const buttons = change.kind === 'disappeared' ? [] : change.kind === 'stopped' ? [show, start] : [show];
    const worse = change.kind === 'stopped' || change.kind === 'suspended' || change.kind === 'disappeared';
    const answer = await tell(worse ? 'warning' : 'info', inAccount(account, oneMessage(change)), ...buttons);
    if (answer === show) await this.actions.show(account, change.id);
    else if (answer === start) {
      this.actions.seen(account, change.id);
      await this.actions.start(account, change.id);
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
      return vscode.l10n.t('new');
  }
}

/** Server text, bounded and inert: a name of any length or form must not flood or take over the notification. */
function name(change: OutsideChange): string {
  return forMessage(change.label, 80);
}
