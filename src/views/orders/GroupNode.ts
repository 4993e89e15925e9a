import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { groupLabel } from './arrangementWords';
import { type OrderGrouping } from './filter';
import { type OrderNode } from './OrderNode';
import { ORDER_GROUP_CONTEXT_VALUE } from './orderPresentation';

/** Its actions are bulk actions. */
export class GroupNode {
  nodes: readonly OrderNode[] = [];

  constructor(
    readonly account: Account,
    readonly by: Exclude<OrderGrouping, 'none'>,
    // '' for the servers without a value.
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
