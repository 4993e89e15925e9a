import * as vscode from 'vscode';
import { type Clock } from '../api/clock';
import { type Store } from '../store/Store';
import { Disposable, toDisposable } from '../util/lifecycle';
import { truncate } from '../views/text';
import { noLinks } from '../views/text';
import { MAX_TOLD, type OutsideChange, OutsideChangeDetector } from '../watch/outsideChanges';

/** Changes that arrive this close together (one list read, a burst of polls) are told in one notification. */
export const GROUP_MS = 1_500;

export interface NotifierActions {
  /** Shows the order in the Orders view (clearing a filter that hides it). */
  show(id: string): Promise<void>;
  /** The user has seen this order's change (clears its badge count). */
  seen(id: string): void;
  /** An order stopped from outside: it now counts on the badge. */
  flag(id: string): void;
  /** Starts the order (the Start button), in this notifier's account. */
  start(id: string): Promise<void>;
}

/**
 * Tells the user about changes no action of this window explains, one notification per change, or one for a group
 * arriving together, each with [Show] and the action that fits. The user's own actions are never told here: the
 * store marks them pending until they settle, and their outcome has its own message.
 */
export class OutsideChangeNotifier extends Disposable {
  private readonly detector: OutsideChangeDetector;
  private waiting: OutsideChange[] = [];
  private timer: unknown;

  constructor(
    store: Store,
    private readonly clock: Clock,
    private readonly actions: NotifierActions,
    /** The account's name with several accounts (said in every message), else empty. */
    private readonly account: () => string = () => '',
  ) {
    super();
    this.detector = new OutsideChangeDetector(store, () => clock.now());
    this.detector.check();
    const check = (): void => {
      // Signed out, or another key or server: what was about to be told belongs to the account that is gone.
      if (store.ordersInfo.updatedAt === undefined) this.waiting = [];
      this.collect(this.detector.check());
    };
    this.register(store.onDidChangeOrders(check));
    this.register(store.onDidChangeState(check));
    // A list read again unchanged (after a new key, say) announces no orders change, but it is the new baseline.
    this.register(store.onDidChangeData((kind) => kind === 'orders' && check()));
    this.register(toDisposable(() => this.timer !== undefined && this.clock.clearTimeout(this.timer)));
  }

  private collect(changes: readonly OutsideChange[]): void {
    if (!changes.length) return;
    for (const change of changes) {
      if (change.kind === 'stopped' || change.kind === 'suspended') this.actions.flag(change.id);
    }
    // A later change of the same order replaces the earlier one: only where it ended matters.
    const ids = new Set(changes.map((c) => c.id));
    this.waiting = [...this.waiting.filter((c) => !ids.has(c.id)), ...changes];
    this.timer ??= this.clock.setTimeout(() => {
      this.timer = undefined;
      const group = this.waiting.splice(0);
      if (group.length) void this.tell(group);
    }, GROUP_MS);
  }

  private async tell(group: readonly OutsideChange[]): Promise<void> {
    if (group.length === 1 && group[0]) return this.tellOne(group[0]);
    const show = vscode.l10n.t('Show');
    const named = group
      .slice(0, MAX_TOLD)
      .map((c) => `${name(c)} (${kindWord(c)})`)
      .join(', ');
    const more = group.length > MAX_TOLD ? ` ${vscode.l10n.t('and {0} more', group.length - MAX_TOLD)}` : '';
    const message = this.inAccount(
      vscode.l10n.t('{0} servers changed outside this window: {1}', group.length, named + more),
    );
    const worse = group.some((c) => c.kind === 'stopped' || c.kind === 'suspended' || c.kind === 'disappeared');
    const answer = await (worse ? vscode.window.showWarningMessage : vscode.window.showInformationMessage)(
      noLinks(message),
      show,
    );
    const first = group.find((c) => c.kind !== 'disappeared');
    if (answer === show && first) await this.actions.show(first.id);
  }

  private async tellOne(change: OutsideChange): Promise<void> {
    const show = vscode.l10n.t('Show');
    const start = vscode.l10n.t('Start');
    const buttons = change.kind === 'disappeared' ? [] : change.kind === 'stopped' ? [show, start] : [show];
    const message = noLinks(this.inAccount(oneMessage(change)));
    const worse = change.kind === 'stopped' || change.kind === 'suspended' || change.kind === 'disappeared';
    const answer = await (worse ? vscode.window.showWarningMessage : vscode.window.showInformationMessage)(
      message,
      ...buttons,
    );
    if (answer === show) await this.actions.show(change.id);
    else if (answer === start) {
      this.actions.seen(change.id);
      await this.actions.start(change.id);
    }
  }

  private inAccount(message: string): string {
    const account = this.account();
    return account ? vscode.l10n.t('Account {0}: {1}', truncate(account, 60), message) : message;
  }
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

/** Server text, bounded: a name of any length must not flood the notification. */
function name(change: OutsideChange): string {
  return truncate(change.label, 80);
}
