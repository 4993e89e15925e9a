/**
 * The lazily loaded features (see ./lazy.ts): filter and sort of the Orders view, badges, the watch for changes
 * made outside this window, and the assistant's tools. They use the store only through its public methods and events.
 */
import * as vscode from 'vscode';
import { type Clock, systemClock } from '../api/clock';
import { type Log } from '../log';
import { registerTools, type ToolSet } from '../lm/registerTools';
import { type Store } from '../store/Store';
import { Disposable } from '../util/lifecycle';
import { type OrdersTreeProvider } from '../views/orders/OrdersTreeProvider';
import { SlowWatch } from '../watch/SlowWatch';
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
}

/** The live parts, for the extension's own tests. */
export class Features extends Disposable {
  readonly arrangement: OrdersArrangement;
  readonly badges: Badges;
  readonly watch: SlowWatch;
  readonly notifier: OutsideChangeNotifier;
  readonly tools?: ToolSet;

  constructor(host: FeatureHost) {
    super();
    const { store, orders, ordersView, invoicesView } = host;
    const clock = host.clock ?? systemClock;
    this.arrangement = this.register(new OrdersArrangement(store, orders, ordersView, host.memento));
    this.badges = this.register(new Badges(store, ordersView, invoicesView));
    this.register(new SelectionContext(store, orders, ordersView));
    this.watch = this.register(
      new SlowWatch(store, clock, watchInterval(), {
        ordersVisible: ordersView.visible,
        focused: vscode.window.state.focused,
      }),
    );
    this.register(ordersView.onDidChangeVisibility((e) => this.watch.setConditions({ ordersVisible: e.visible })));
    this.register(vscode.window.onDidChangeWindowState((e) => this.watch.setConditions({ focused: e.focused })));
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('hostingAccount.watchInterval')) this.watch.setInterval(watchInterval());
      }),
    );
    this.notifier = this.register(
      new OutsideChangeNotifier(store, clock, {
        show: (id) => this.show(host, id),
        seen: (id) => this.badges.seen(id),
        flag: (id) => this.badges.flag(id),
      }),
    );
    this.tools = registerTools(store, host.log.scoped('tools'));
    if (this.tools) this.register(this.tools);
  }

  /** Reveals an order in the Orders view, first showing all orders if the filter hides it. */
  private async show(host: FeatureHost, id: string): Promise<void> {
    this.badges.seen(id);
    await vscode.commands.executeCommand('hostingAccount.orders.focus');
    const node = host.orders.nodeFor(id);
    if (!node) return;
    const visible = await host.orders.getChildren();
    if (!visible.includes(node)) await this.arrangement.set({ filter: 'all' });
    await host.ordersView.reveal(node, { select: true, focus: true });
  }
}

export function activateFeatures(host: FeatureHost): Features {
  return new Features(host);
}

function watchInterval(): number {
  const value = vscode.workspace.getConfiguration('hostingAccount').get<number>('watchInterval', 5);
  return typeof value === 'number' && Number.isFinite(value) ? value : 5;
}
