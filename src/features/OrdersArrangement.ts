import * as vscode from 'vscode';
import { Disposable, type IDisposable, toDisposable } from '../util/lifecycle';
import { type OrdersTreeProvider } from '../views/orders/OrdersTreeProvider';
import {
  type Arrangement,
  arrangeOrders,
  ORDER_FILTERS,
  ORDER_SORTS,
  type OrderFilter,
  type OrderSort,
  parseArrangement,
} from '../views/orders/filter';
import { filterLabel, filterWord, sortLabel } from './arrangementStrings';
import { type AccountsSource, PerAccount } from './accountsSource';
import { FEATURE_COMMAND_IDS } from './commandIds';

/**
 * Remembered in globalState, not workspaceState: the account (its base URL and key) is the same in every window and
 * folder, so how the user likes to see its orders is too; a per-folder filter would hide servers by surprise.
 */
export const ARRANGEMENT_KEY = 'hostingAccount.ordersView.arrangement';

/**
 * The Orders view's filter and sort: applied to every account's tree, said in the view's description ("running: 3 of
 * 12", counted over all accounts), remembered across restarts, and changed through the view-title commands.
 */
export class OrdersArrangement extends Disposable {
  private current: Arrangement;
  /** How many orders each account's tree shows now. */
  private readonly shown = new Map<OrdersTreeProvider, number>();
  /** Unset only while it is being built (it describes the view once built). */
  private readonly trees?: PerAccount<IDisposable>;

  constructor(
    accounts: AccountsSource,
    private readonly view: vscode.TreeView<unknown>,
    private readonly memento: vscode.Memento,
  ) {
    super();
    this.current = parseArrangement(memento.get(ARRANGEMENT_KEY));
    this.trees = this.register(
      new PerAccount(
        accounts,
        ({ store, orders: tree }) => {
          tree.arrange = (orders) => {
            const arranged = arrangeOrders(orders, this.current, (id) => store.pending(id)?.action);
            this.shown.set(tree, arranged.shown.length);
            this.describe();
            return arranged.shown;
          };
          const listeners = [
            // A change of state (or an action starting or ending) can move an order in or out of the filter, or in
            // the sort.
            store.onDidChangeOrders((change) => {
              if (change.ids && this.arranged()) tree.redraw();
            }),
            store.onDidChangeState(() => this.describe()),
          ];
          return toDisposable(() => {
            tree.arrange = undefined;
            this.shown.delete(tree);
            for (const listener of listeners) listener.dispose();
          });
        },
        () => this.describe(),
      ),
    );
    const [filterId, sortId] = FEATURE_COMMAND_IDS;
    this.register(vscode.commands.registerCommand(filterId, (arg: unknown) => this.pickFilter(arg)));
    this.register(vscode.commands.registerCommand(sortId, (arg: unknown) => this.pickSort(arg)));
    this.redraw();
    this.describe();
  }

  private redraw(): void {
    for (const { account } of this.trees?.entries() ?? []) account.orders.redraw();
  }

  get arrangement(): Arrangement {
    return this.current;
  }

  /** Whether the view shows anything but the whole list in the server's order. */
  private arranged(): boolean {
    return this.current.filter !== 'all' || this.current.sort === 'state';
  }

  async set(change: Partial<Arrangement>): Promise<void> {
    this.current = { ...this.current, ...change };
    this.redraw();
    this.describe();
    await this.memento.update(ARRANGEMENT_KEY, this.current);
  }

  /** With an argument (a welcome-view link, a keybinding), sets that filter; without one, asks. */
  private async pickFilter(arg: unknown): Promise<void> {
    const given = ORDER_FILTERS.find((f) => f === arg);
    const filter =
      given ?? (await pick(ORDER_FILTERS, this.current.filter, filterLabel, vscode.l10n.t('Show servers')));
    if (filter) await this.set({ filter });
  }

  private async pickSort(arg: unknown): Promise<void> {
    const given = ORDER_SORTS.find((s) => s === arg);
    const sort = given ?? (await pick(ORDER_SORTS, this.current.sort, sortLabel, vscode.l10n.t('Sort servers')));
    if (sort) await this.set({ sort });
  }

  private describe(): void {
    const { filter, sort } = this.current;
    const live = this.trees?.entries().map((e) => e.account) ?? [];
    const ready = live.some((a) => a.store.state === 'ready');
    let total = 0;
    let shown = 0;
    for (const { store, orders } of live) {
      if (store.state !== 'ready') continue;
      total += store.orders.size;
      shown += this.shown.get(orders) ?? 0;
    }
    const parts: string[] = [];
    if (ready && filter !== 'all') {
      parts.push(
        vscode.l10n.t(
          '{0}: {1} of {2}',
          filterWord(filter),
          shown.toLocaleString(vscode.env.language),
          total.toLocaleString(vscode.env.language),
        ),
      );
    }
    if (ready && sort !== 'server') parts.push(sortLabel(sort).toLocaleLowerCase(vscode.env.language));
    this.view.description = parts.length ? parts.join(' · ') : undefined;
    void vscode.commands.executeCommand(
      'setContext',
      'hostingAccount.ordersFilteredEmpty',
      ready && filter !== 'all' && total > 0 && shown === 0,
    );
    void vscode.commands.executeCommand('setContext', 'hostingAccount.ordersFiltered', filter !== 'all');
  }
}

interface Choice<T> extends vscode.QuickPickItem {
  readonly value: T;
}

async function pick<T extends OrderFilter | OrderSort>(
  values: readonly T[],
  current: T,
  label: (value: T) => string,
  title: string,
): Promise<T | undefined> {
  const items: Array<Choice<T>> = values.map((value) => ({
    value,
    label: label(value),
    description: value === current ? vscode.l10n.t('current') : undefined,
    picked: value === current,
  }));
  const chosen = await vscode.window.showQuickPick(items, { title, placeHolder: label(current) });
  return chosen?.value;
}
