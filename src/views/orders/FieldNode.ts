import * as vscode from 'vscode';
import { type Field, truncate } from './orderPresentation';

/** One field of an order's details, from `GET /orders/{id}`; objects and arrays expand. */
export class FieldNode {
  constructor(
    readonly parentId: string,
    readonly field: Field,
    readonly path: string,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const { field } = this;
    const item = new vscode.TreeItem(field.key,
      field.children ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `${this.parentId}/${this.path}`;
    item.contextValue = 'orderField';
    if (field.value !== undefined) {
      item.description = truncate(field.value, 120);
      item.tooltip = field.value;
    }
    return item;
  }

  children(): FieldNode[] {
    return (this.field.children ?? []).map((child) => new FieldNode(this.parentId, child, `${this.path}/${child.key}`));
  }
}
