import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { type AccountModel } from '../../accounts/AccountModel';
import { type Order } from '../../api/models';
import { Emitter } from '../../util/Emitter';
import { Disposable } from '../../util/lifecycle';
import { contextSetter } from '../contextKeys';
import { filterWord, groupWord, sortWord } from './arrangementWords';
import { type Arrangement, arrangeOrders, groupKey, groupOrders, parseArrangement } from './filter';

// In globalState: the account is the same in every folder, and a per-folder filter would hide servers by surprise.
const ARRANGEMENT_KEY = 'hostingAccount.ordersView.arrangement';

/** Every account's orders filtered, sorted and grouped alike; the view's description counts over all of them. */
export class OrdersArrangement extends Disposable {
  private current: Arrangement;
  private readonly shown = new WeakMap<Account, number>();
  private readonly onDidChangeEmitter = this.register(new Emitter<void>());
  readonly onDidChange = this.onDidChangeEmitter.event;
  private readonly onDidDescribeEmitter = this.register(new Emitter<string | undefined>());
  readonly onDidDescribe = this.onDidDescribeEmitter.event;
  private readonly setContext = contextSetter();
  private said?: string;

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

  // Whether a change of state can move an order in the view.
  get active(): boolean {
    return this.current.filter !== 'all' || this.current.sort === 'state' || this.current.group !== 'none';
  }

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
    const description = parts.length ? parts.join(' · ') : undefined;
    if (this.said !== description) {
      this.said = description;
      this.onDidDescribeEmitter.fire(description);
    }
    // An empty filtered view offers Show All Servers.
    this.setContext('hostingAccount.ordersFilteredEmpty', ready.length > 0 && filter !== 'all' && total > 0 && !shown);
    this.setContext('hostingAccount.ordersFiltered', filter !== 'all');
  }

  get description(): string | undefined {
    return this.said;
  }
}
