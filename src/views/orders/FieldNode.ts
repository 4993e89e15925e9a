import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { type Field, fieldRow } from '../fields';
import { moreFields } from './OrderNode';

export class FieldNode {
  private constructor(
    readonly account: Account,
    readonly orderId: string,
    readonly field: Field,
    // Positions, not keys: any key a server sends makes a valid, unique id.
    readonly path: string,
    readonly parent?: FieldNode,
  ) {}

  static forOrder(account: Account, orderId: string, fields: readonly Field[]): FieldNode[] {
    return fields.map((field, index) => new FieldNode(account, orderId, field, `${index}`));
  }

  toTreeItem(idPrefix: string): vscode.TreeItem {
    const { field } = this;
    const row = fieldRow(field, moreFields);
    const item = new vscode.TreeItem(
      row.label,
      field.children ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `${idPrefix}order/${encodeURIComponent(this.orderId)}/${this.path}`;
    item.contextValue = 'orderField';
    if (row.description !== undefined) {
      item.description = row.description;
      item.tooltip = row.description;
    }
    return item;
  }

  children(): FieldNode[] {
    return (this.field.children ?? []).map(
      (child, index) => new FieldNode(this.account, this.orderId, child, `${this.path}/${index}`, this),
    );
  }
}
