import * as vscode from 'vscode';
import { type Order } from '../../api/models';
import { type Store } from '../../store/Store';
import { Disposable } from '../../util/lifecycle';
import { FieldNode } from './FieldNode';
import { OrderNode } from './OrderNode';
import { fieldsOf } from '../fields';

export type OrdersTreeNode = OrderNode | FieldNode;

/** The accounts layer's view of the tree: the same calls, its account rows passed through as opaque nodes. */
export interface OrdersLayer {
  getTreeItem(node: OrdersTreeNode): vscode.TreeItem;
  getChildren(node?: OrdersTreeNode): Promise<OrdersTreeNode[]>;
  getParent(node: OrdersTreeNode): OrdersTreeNode | undefined;
}

/**
 * The Orders view. Nodes are kept per order id and updated in place, and a change to one order redraws only that
 * node. While the store is not ready the root is empty, which lets the view's welcome content speak.
 */
export class OrdersTreeProvider extends Disposable implements vscode.TreeDataProvider<OrdersTreeNode> {
  private readonly nodes = new Map<string, OrderNode>();
  private readonly emitter = this.register(new vscode.EventEmitter<OrdersTreeNode | OrdersTreeNode[] | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  /** Filter and sort, set by the view features once they load (see src/features/); until then, the server's list. */
  arrange?: (orders: readonly Order[]) => readonly Order[];
  /**
   * Several accounts (src/accounts/): the view's top level is then one node per account, each holding its own tree.
   * Unset with one account, so the tree is exactly the one-account tree.
   */
  layer?: OrdersLayer;

  constructor(private readonly store: Store) {
    super();
    this.register(
      store.onDidChangeOrders((change) => {
        if (!change.ids) return this.emitter.fire(undefined);
        const nodes = change.ids.map((id) => this.nodeFor(id)).filter((n): n is OrderNode => n !== undefined);
        if (nodes.length) this.emitter.fire(nodes);
      }),
    );
    this.register(store.onDidChangeState(() => this.emitter.fire(undefined)));
  }

  getTreeItem(node: OrdersTreeNode): vscode.TreeItem {
    return this.layer ? this.layer.getTreeItem(node) : this.ownTreeItem(node);
  }

  getChildren(node?: OrdersTreeNode): Promise<OrdersTreeNode[]> {
    return this.layer ? this.layer.getChildren(node) : this.ownChildren(node);
  }

  getParent(node: OrdersTreeNode): OrdersTreeNode | undefined {
    return this.layer ? this.layer.getParent(node) : this.ownParent(node);
  }

  /** Tells the view that these nodes changed (used by the accounts layer for the other accounts' trees). */
  changed(nodes: OrdersTreeNode[] | undefined): void {
    this.emitter.fire(nodes);
  }

  ownTreeItem(node: OrdersTreeNode): vscode.TreeItem {
    return node instanceof OrderNode ? node.toTreeItem(this.store.pending(node.id)) : node.toTreeItem();
  }

  async ownChildren(node?: OrdersTreeNode): Promise<OrdersTreeNode[]> {
    if (!node) return this.roots();
    if (node instanceof FieldNode) return node.children();
    let raw = node.order.raw;
    try {
      // VS Code also asks again when it redraws an expanded order, so this counts as background: a failure is
      // reported once per outage by the store's listeners, not once per expanded order.
      raw = (await this.store.orderDetails(node.id, 30_000, 'background')).raw;
    } catch {
      // Show what the list already told us rather than an empty node.
    }
    return FieldNode.forOrder(node.id, fieldsOf(raw));
  }

  resolveTreeItem(item: vscode.TreeItem, node: OrdersTreeNode): vscode.TreeItem {
    if (node instanceof OrderNode) item.tooltip = node.tooltip();
    return item;
  }

  ownParent(node: OrdersTreeNode): OrdersTreeNode | undefined {
    if (node instanceof OrderNode) return undefined;
    return node.parent ?? this.nodes.get(node.orderId);
  }

  /** Redraws the whole list: the filter or sort changed, or a change moved an order in or out of the filter. */
  redraw(): void {
    this.emitter.fire(undefined);
  }

  /** The node of an order, for commands invoked from the palette and for reveal. */
  nodeFor(id: string): OrderNode | undefined {
    const order = this.store.orders.get(id);
    return order && this.nodeOf(order);
  }

  /** The one node per order id, updated in place so the tree keeps its expansion and selection. */
  private nodeOf(order: Order): OrderNode {
    let node = this.nodes.get(order.id);
    if (node) node.order = order;
    else this.nodes.set(order.id, (node = new OrderNode(order, this)));
    return node;
  }

  private roots(): OrderNode[] {
    if (this.store.state !== 'ready') return [];
    const orders = this.arrange?.(this.store.orders.all) ?? this.store.orders.all;
    const live = new Set<string>();
    const roots = orders.map((order) => {
      live.add(order.id);
      return this.nodeOf(order);
    });
    for (const id of this.nodes.keys()) if (!live.has(id)) this.nodes.delete(id);
    return roots;
  }
}
