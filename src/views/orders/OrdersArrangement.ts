import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { type AccountModel } from '../../accounts/AccountModel';
import { type Order } from '../../api/models';
import { Emitter } from '../../util/Emitter';
import { Disposable } from '../../util/lifecycle';
import { filterWord, groupWord, sortWord } from './arrangementWords';
import { type Arrangement, arrangeOrders, groupKey, groupOrders, parseArrangement } from './filter';

/**
 * Remembered in globalState, not workspaceState: the account (its base URL and key) is the same in every window and
 * folder, so how the user likes to see its orders is too; a per-folder filter would hide servers by surprise.
 */
export const ARRANGEMENT_KEY = 'hostingAccount.ordersView.arrangement';

/**
 * The Orders view's filter and sort: applied to every account's orders, said in the view's description ("running: 3 of
 * 12", counted over all accounts) and in context keys (an empty filtered view offers Show All Servers), remembered
 * across restarts. The Filter and Sort commands change it.
 */
export class OrdersArrangement extends Disposable {
  private current: Arrangement;
  /** How many orders each account's part of the view shows now. */
  private readonly shown = new WeakMap<Account, number>();
  private readonly onDidChangeEmitter = this.register(new Emitter<void>());
  /** The filter or sort changed: the view shows another selection or order. */
  readonly onDidChange = this.onDidChangeEmitter.event;
  private readonly onDidDescribeEmitter = this.register(new Emitter<string | undefined>());
  /** What the view's description says now ("running: 3 of 12 · by name"), when it changed. */
  readonly onDidDescribe = this.onDidDescribeEmitter.event;
  private said?: { description?: string; filteredEmpty: boolean; filtered: boolean };

  constructor(
    private readonly model: AccountModel,
    private readonly memento: vscode.Memento,
  ) {
    super();
    this.current = parseArrangement(memento.get(ARRANGEMENT_KEY));
    this.register(model.onDidChangeState(() => this.describe()));
    this.register(model.onDidChange(() => this.describe()));
    this.describe();
  }

  get arrangement(): Arrangement {
    return this.current;
  }

  /** Whether a change of state can move an order in the view (out of the filter, in the sort, to another group). */
  get active(): boolean {
    return this.current.filter !== 'all' || this.current.sort === 'state' || this.current.group !== 'none';
  }

  /** The orders of one account as the view shows them, its pinned servers first. */
  arrange(account: Account, orders: readonly Order[]): readonly Order[] {
    const arranged = arrangeOrders(orders, this.current, (id) => account.store.pending(id)?.action);
    const { marks } = account;
    const pinned = (order: Order): boolean => marks.of(order.id).pinned === true;
    const shown = marks.anyPinned
      ? [...arranged.shown.filter(pinned), ...arranged.shown.filter((order) => !pinned(order))]
      : arranged.shown;
    this.shown.set(account, shown.length);
    this.describe();
    return shown;
  }

  /** The arranged orders of one account in the chosen groups. */
  group(account: Account, orders: readonly Order[]): Array<{ key: string; orders: Order[] }> {
    const { group } = this.current;
    const { store, marks } = account;
    return groupOrders(orders, group, (order) =>
      groupKey(order, group, store.pending(order.id)?.action, marks.of(order.id).label),
    );
  }

  async set(change: Partial<Arrangement>): Promise<void> {
    this.current = { ...this.current, ...change };
    this.onDidChangeEmitter.fire();
    this.describe();
    await this.memento.update(ARRANGEMENT_KEY, this.current);
  }

  private describe(): void {
    const { filter, sort, group } = this.current;
    const ready = this.model.accounts.filter((account) => account.store.state === 'ready');
    let total = 0;
    let shown = 0;
    for (const account of ready) {
      total += account.store.orders.size;
      shown += this.shown.get(account) ?? account.store.orders.size;
    }
    const parts: string[] = [];
    const language = vscode.env.language;
    if (ready.length && filter !== 'all') {
      parts.push(
        vscode.l10n.t(
          '{0}: {1} of {2}',
          filterWord(filter),
          shown.toLocaleString(language),
          total.toLocaleString(language),
        ),
      );
    }
    if (ready.length && sort !== 'server') parts.push(sortWord(sort));
    if (ready.length && group !== 'none') parts.push(groupWord(group));
    const said = {
      description: parts.length ? parts.join(' · ') : undefined,
      filteredEmpty: ready.length > 0 && filter !== 'all' && total > 0 && shown === 0,
      filtered: filter !== 'all',
    };
    const before = this.said;
    this.said = said;
    if (before?.description !== said.description) this.onDidDescribeEmitter.fire(said.description);
    if (before?.filteredEmpty !== said.filteredEmpty) {
      void vscode.commands.executeCommand('setContext', 'hostingAccount.ordersFilteredEmpty', said.filteredEmpty);
    }
    if (before?.filtered !== said.filtered) {
      void vscode.commands.executeCommand('setContext', 'hostingAccount.ordersFiltered', said.filtered);
    }
  }

  /** The view's description now. */
  get description(): string | undefined {
    return this.said?.description;
  }
}
