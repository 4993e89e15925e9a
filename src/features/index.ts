/**
 * The lazily loaded features (see ./lazy.ts): filter and sort of the Orders view, badges, the watch for changes
 * made outside this window, and the assistant's tools. They use the store only through its public methods and events.
 */
import * as vscode from 'vscode';
import type { Accounts } from '../accounts/index';
import { type Clock, systemClock } from '../api/clock';
import { type Log } from '../log';
import { registerTools, type ToolSet } from '../lm/registerTools';
import { type Store } from '../store/Store';
import { Disposable } from '../util/lifecycle';
import { type OrdersTreeProvider } from '../views/orders/OrdersTreeProvider';
import { SlowWatch } from '../watch/SlowWatch';
import { type AccountsSource, allAccounts, type FeatureAccount, PerAccount, singleAccount } from './accountsSource';
import { Badges } from './Badges';
import { OrdersArrangement } from './OrdersArrangement';
import { OutsideChangeNotifier } from './OutsideChangeNotifier';
import { SelectionContext } from './SelectionContext';

export interface FeatureHost {
  readonly store: Store;
  readonly orders: OrdersTreeProvider;
  readonly ordersView: vscode.TreeView<unknown>;
  readonly invoicesView: vscode.TreeView<unknown>;
  /** Where the view's filter and sort are remembered (globalState: see OrdersArrangement). */
  readonly memento: vscode.Memento;
  readonly log: Log;
  readonly clock?: Clock;
  /** Every account (the accounts bundle): filter, badges and the watch cover them all. Without it, the first only. */
  readonly accounts?: () => Accounts;
}

/** What watches one account for changes made outside this window. */
class AccountWatch extends Disposable {
  constructor(
    readonly watch: SlowWatch,
    readonly notifier: OutsideChangeNotifier,
  ) {
    super();
    this.register(watch);
    this.register(notifier);
  }
}

/** The live parts, for the extension's own tests. */
export class Features extends Disposable {
  readonly arrangement: OrdersArrangement;
  readonly badges: Badges;
  readonly tools?: ToolSet;
  /** The watch and the notifier of each account, the first account's first. */
  private readonly watches: PerAccount<AccountWatch>;

  constructor(host: FeatureHost) {
    super();
    const { store, orders, ordersView, invoicesView } = host;
    const clock = host.clock ?? systemClock;
    const accounts: AccountsSource = host.accounts ? allAccounts(host.accounts()) : singleAccount(store, orders);
    this.arrangement = this.register(new OrdersArrangement(accounts, ordersView, host.memento));
    this.badges = this.register(new Badges(accounts, ordersView, invoicesView));
    this.register(new SelectionContext(accounts, ordersView));
    this.watches = this.register(
      new PerAccount(accounts, (account) => {
        const watch = new SlowWatch(account.store, clock, watchInterval(), {
          ordersVisible: ordersView.visible,
          focused: vscode.window.state.focused,
        });
        const notifier = new OutsideChangeNotifier(
          account.store,
          clock,
          {
            show: (id) => this.show(host, account, id),
            seen: (id) => this.badges.seen(account.store, id),
            flag: (id) => this.badges.flag(account.store, id),
            start: (id) => start(host, account, id),
          },
          // Named only with several accounts; read when told, so a rename shows.
          () => {
            const list = accounts.list();
            return list.length > 1 ? (list.find((a) => a.store === account.store)?.name ?? account.name) : '';
          },
        );
        return new AccountWatch(watch, notifier);
      }),
    );
    const eachWatch = (change: (watch: SlowWatch) => void): void => {
      for (const { value } of this.watches.entries()) change(value.watch);
    };
    this.register(
      ordersView.onDidChangeVisibility((e) => eachWatch((w) => w.setConditions({ ordersVisible: e.visible }))),
    );
    this.register(
      vscode.window.onDidChangeWindowState((e) => eachWatch((w) => w.setConditions({ focused: e.focused }))),
    );
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('hostingAccount.watchInterval')) eachWatch((w) => w.setInterval(watchInterval()));
      }),
    );
    this.tools = registerTools(store, host.log.scoped('tools'));
    if (this.tools) this.register(this.tools);
  }

  /** The first account's watch (the tests drive it). */
  get watch(): SlowWatch {
    const first = this.watches.entries()[0];
    if (!first) throw new Error('no account is watched');
    return first.value.watch;
  }

  /** The first account's notifier. */
  get notifier(): OutsideChangeNotifier {
    const first = this.watches.entries()[0];
    if (!first) throw new Error('no account is watched');
    return first.value.notifier;
  }

  /** Reveals an order in the Orders view (under its account's row), first showing all orders if the filter hides it. */
  private async show(host: FeatureHost, account: FeatureAccount, id: string): Promise<void> {
    this.badges.seen(account.store, id);
    await vscode.commands.executeCommand('hostingAccount.orders.focus');
    const node = account.orders.nodeFor(id);
    if (!node) return;
    const visible = await account.orders.ownChildren();
    if (!visible.includes(node)) await this.arrangement.set({ filter: 'all' });
    await host.ordersView.reveal(node, { select: true, focus: true });
  }
}

/** Start from a notification: the order's node in its own account's tree, so the command acts in that account. */
async function start(host: FeatureHost, account: FeatureAccount, id: string): Promise<void> {
  // The first account's order goes by id (the command finds the order the store knows now, and refuses a second
  // action); an id alone always means the first account, so another account's goes by its node in its own tree.
  const target = account.orders === host.orders ? id : account.orders.nodeFor(id);
  if (target !== undefined) await vscode.commands.executeCommand('hostingAccount.order.start', target);
}

export function activateFeatures(host: FeatureHost): Features {
  return new Features(host);
}

function watchInterval(): number {
  const value = vscode.workspace.getConfiguration('hostingAccount').get<number>('watchInterval', 5);
  return typeof value === 'number' && Number.isFinite(value) ? value : 5;
}
