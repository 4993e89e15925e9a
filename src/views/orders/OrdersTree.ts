import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { historyLine } from '../HistoryDocument';
import { type AccountModel } from '../../accounts/AccountModel';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/accountList';
import { type Order } from '../../api/models';
import { type Forecast } from '../../billing/types';
import { renewalTooltipLines, warningDays } from '../../notify/renewalWords';
import { Disposable } from '../../util/lifecycle';
import { AccountNode, accountRowItem } from '../AccountNode';
import { fieldsOf } from '../fields';
import { FieldNode } from './FieldNode';
import { GroupNode } from './GroupNode';
import { OrderNode } from './OrderNode';
import { type OrdersArrangement } from './OrdersArrangement';
import { RenewalNode } from './RenewalNode';

export type OrdersTreeNode = AccountNode | GroupNode | OrderNode | RenewalNode | FieldNode;

/** An account's order nodes for one session of its store: a new key or address starts a new set. */
interface NodeSet {
  readonly generation: number;
  readonly byId: Map<string, OrderNode>;
  groups: Map<string, GroupNode>;
  readonly parents: Map<string, GroupNode>;
}

function keyOf(order: Order): string {
  return order.duplicateId ? `${order.id}\u0000${order.duplicateId.index}` : order.id;
}

/**
 * Nodes are kept per account and order id and updated in place, so a change to one order redraws only that node and
 * VS Code keeps selection and expansion. A part not ready is empty: the welcome content or the account row speaks.
 */
export class OrdersTree extends Disposable implements vscode.TreeDataProvider<OrdersTreeNode> {
  private readonly nodes = new WeakMap<Account, NodeSet>();
  private readonly drawnStale = new WeakMap<Account, boolean>();
  private readonly checkedForecast = new WeakMap<Account, Forecast>();
  private readonly emitter = this.register(new vscode.EventEmitter<OrdersTreeNode | OrdersTreeNode[] | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(
    private readonly model: AccountModel,
    private readonly arrangement: OrdersArrangement,
  ) {
    super();
    this.register(
      model.onDidChangeOrders(({ account, value: change }) => {
        // An action starting or ending can move an order in or out of the filter, or in the sort.
        if (!change.ids || this.arrangement.active) return this.changed(account);
        const set = this.nodeSet(account);
        const nodes = change.ids.flatMap((id) => {
          const node = set.byId.get(id);
          const order = account.store.orders.get(id);
          if (node && order) node.order = order;
          return node ? [node] : [];
        });
        if (nodes.length) this.emitter.fire(nodes);
      }),
    );
    this.register(model.onDidChangeState((account) => this.changed(account)));
    this.register(
      model.onDidChangeData(({ account, value: kind }) => {
        if (kind === 'balance' && model.several) this.emitter.fire(AccountNode.of(account));
        if (kind === 'orders' && this.drawnStale.get(account) !== isStale(account)) this.changed(account);
        if (kind !== 'account') this.renewalsChanged(account);
      }),
    );
    this.register(model.onDidChangeMarks((account) => this.changed(account)));
    this.register(model.onDidChange(() => this.emitter.fire(undefined)));
    this.register(arrangement.onDidChange(() => this.emitter.fire(undefined)));
  }

  getTreeItem(node: OrdersTreeNode): vscode.TreeItem {
    if (node instanceof AccountNode) return accountRowItem(node, 'orders');
    const prefix = idPrefix(node.account, this.model);
    if (node instanceof FieldNode || node instanceof RenewalNode || node instanceof GroupNode) {
      return node.toTreeItem(prefix);
    }
    const stale = isStale(node.account);
    this.drawnStale.set(node.account, stale);
    const warn = renewalWarning(node.account, node.id);
    node.drawnRenewal = renewalKey(node.account, node.id);
    return node.toTreeItem(node.account.store.pending(node.id), prefix, stale, warn);
  }

  async getChildren(node?: OrdersTreeNode): Promise<OrdersTreeNode[]> {
    if (!node) {
      if (this.model.several) return this.model.accounts.map((account) => AccountNode.of(account));
      return this.childrenOf(this.model.first);
    }
    if (node instanceof AccountNode) return this.model.accountOf(node) ? this.childrenOf(node.account) : [];
    if (node instanceof GroupNode) return [...node.nodes];
    if (node instanceof FieldNode) return node.children();
    if (node instanceof RenewalNode) return [];
    let raw = node.order.raw;
    try {
      // Background: VS Code asks again on every redraw of an expanded order, and a failure is told once per outage.
      if (node.current) raw = (await node.account.store.orderDetails(node.id, 30_000, 'background')).raw;
    } catch {
      // What the list told us, rather than an empty node.
    }
    const fields = FieldNode.forOrder(node.account, node.id, fieldsOf(raw));
    const { account, order } = node;
    const forecast = account.forecast();
    const outlook = forecast.orders.get(order.id);
    const renewal = RenewalNode.of(account, order, outlook, forecast.today, renewalWarning(account, order.id));
    return renewal ? [renewal, ...fields] : fields;
  }

  getParent(node: OrdersTreeNode): OrdersTreeNode | undefined {
    if (node instanceof AccountNode) return undefined;
    if (node instanceof FieldNode) return node.parent ?? this.nodeFor(node.account, node.orderId);
    if (node instanceof RenewalNode) return this.nodeFor(node.account, node.orderId);
    const group = node instanceof OrderNode ? this.nodeSet(node.account).parents.get(keyOf(node.order)) : undefined;
    return group ?? (this.model.several ? AccountNode.of(node.account) : undefined);
  }

  resolveTreeItem(item: vscode.TreeItem, node: OrdersTreeNode): vscode.TreeItem {
    if (node instanceof OrderNode) {
      const { account, order } = node;
      const last = account.history.last(order.id);
      const renewal = renewalTooltipLines(account.forecast(), order);
      item.tooltip = node.tooltip(staleNote(account), renewal, last && historyLine(last, Date.now()));
    }
    return item;
  }

  /** Redraws the rows whose renewal marks or words changed; no account: the warning setting changed, all of them. */
  renewalsChanged(account?: Account): void {
    for (const each of account ? [account] : this.model.accounts) {
      const set = this.nodes.get(each);
      if (!set || set.generation !== each.store.generation) continue;
      const forecast = each.forecast();
      if (account && this.checkedForecast.get(each) === forecast) continue;
      this.checkedForecast.set(each, forecast);
      const changed = [...set.byId.values()].filter((node) => node.drawnRenewal !== renewalKey(each, node.id));
      if (changed.length) this.emitter.fire(changed);
    }
  }

  redraw(nodes: readonly OrderNode[]): void {
    if (nodes.length) this.emitter.fire([...nodes]);
  }

  nodeFor(account: Account, id: string): OrderNode | undefined {
    const order = account.store.orders.get(id);
    return order && this.nodeOf(account, order);
  }

  private changed(account: Account): void {
    this.emitter.fire(this.model.several ? AccountNode.of(account) : undefined);
  }

  private childrenOf(account: Account): Array<OrderNode | GroupNode> {
    const { store } = account;
    if (store.state !== 'ready') return [];
    const orders = this.arrangement.arrange(account, store.orders.all);
    const set = this.nodeSet(account);
    const live = new Set<string>();
    const nodeOf = (order: Order): OrderNode => {
      live.add(keyOf(order));
      return this.nodeOf(account, order);
    };
    const by = this.arrangement.arrangement.group;
    set.parents.clear();
    let children: Array<OrderNode | GroupNode>;
    if (by === 'none') {
      children = orders.map(nodeOf);
    } else {
      const groups = new Map<string, GroupNode>();
      children = this.arrangement.group(account, orders).map(({ key, orders: members }) => {
        const group = set.groups.get(`${by}/${key}`) ?? new GroupNode(account, by, key);
        groups.set(`${by}/${key}`, group);
        group.nodes = members.map(nodeOf);
        for (const node of group.nodes) set.parents.set(keyOf(node.order), group);
        return group;
      });
      set.groups = groups;
    }
    for (const id of set.byId.keys()) if (!live.has(id)) set.byId.delete(id);
    return children;
  }

  private nodeOf(account: Account, order: Order): OrderNode {
    const set = this.nodeSet(account);
    const key = keyOf(order);
    let node = set.byId.get(key);
    if (node) node.order = order;
    else set.byId.set(key, (node = new OrderNode(account, set.generation, order)));
    return node;
  }

  private nodeSet(account: Account): NodeSet {
    const generation = account.store.generation;
    let set = this.nodes.get(account);
    if (!set || set.generation !== generation) {
      this.nodes.set(account, (set = { generation, byId: new Map(), groups: new Map(), parents: new Map() }));
    }
    return set;
  }
}

// The same order id may be in two accounts.
export function idPrefix(account: Account, model: AccountModel): string {
  return account.id === DEFAULT_ACCOUNT_ID || !model.several ? '' : `account/${account.id}/`;
}

function renewalWarning(account: Account, id: string): boolean {
  if (!warningDays(account.settings) || account.store.state !== 'ready') return false;
  return account.forecast().orders.get(id)?.warn ?? false;
}

function renewalKey(account: Account, id: string): string {
  const outlook = account.forecast().orders.get(id);
  if (!outlook) return '';
  const short = outlook.firstUncovered;
  return `${renewalWarning(account, id)}|${outlook.nextDay}|${outlook.next?.covered}|${short?.day}|${short?.shortBy}`;
}

function isStale(account: Account): boolean {
  return account.store.state === 'ready' && account.store.ordersInfo.error !== undefined;
}

function staleNote(account: Account): string | undefined {
  const { updatedAt } = account.store.ordersInfo;
  if (!isStale(account) || !updatedAt) return undefined;
  const time = new Date(updatedAt).toLocaleTimeString(vscode.env.language, { hour: 'numeric', minute: '2-digit' });
  return vscode.l10n.t('As of {0}: the last refresh failed, so this may have changed.', time);
}
