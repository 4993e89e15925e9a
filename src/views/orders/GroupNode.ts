import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { groupLabel } from './arrangementWords';
import { type OrderGrouping } from './filter';
import { type OrderNode } from './OrderNode';
import { ORDER_GROUP_CONTEXT_VALUE } from './orderPresentation';

/** A group of an account's servers (by state, plan, location, renewal month or label); its actions are bulk actions. */
export class GroupNode {
  /** The servers the view shows in it now, filtered and sorted. */
  nodes: readonly OrderNode[] = [];

  constructor(
    readonly account: Account,
    readonly by: Exclude<OrderGrouping, 'none'>,
    /** The plain value grouped on; '' for the servers without one. */
    readonly key: string,
  ) {}

  toTreeItem(idPrefix: string): vscode.TreeItem {
    const item = new vscode.TreeItem(groupLabel(this.by, this.key), vscode.TreeItemCollapsibleState.Expanded);
    item.id = `${idPrefix}group/${this.by}/${encodeURIComponent(this.key)}`;
    item.description = this.nodes.length.toLocaleString(vscode.env.language);
    item.contextValue = ORDER_GROUP_CONTEXT_VALUE;
    item.iconPath = new vscode.ThemeIcon(this.by === 'label' ? 'tag' : 'folder');
    return item;
  }
}
