import * as vscode from 'vscode';
import { type Field } from '../fields';
import { truncate } from '../text';

/** One field of an order's details, from `GET /orders/{id}`; objects and arrays expand. */
export class FieldNode {
  private constructor(
    /** The order the field belongs to. */
    readonly orderId: string,
    readonly field: Field,
    /** Encoded keys from the order down to this field, so a key with a slash cannot collide with a nested path. */
    readonly path: string,
    readonly parent?: FieldNode,
  ) {}

  /** The top-level fields of an order. */
  static forOrder(orderId: string, fields: readonly Field[]): FieldNode[] {
    return fields.map((field) => new FieldNode(orderId, field, encodeURIComponent(field.key)));
  }

  toTreeItem(): vscode.TreeItem {
    const { field } = this;
    const item = new vscode.TreeItem(
      field.key,
      field.children ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `order/${encodeURIComponent(this.orderId)}/${this.path}`;
    item.contextValue = 'orderField';
    if (field.value !== undefined) {
      item.description = truncate(field.value, 120);
      item.tooltip = field.value;
    }
    return item;
  }

  children(): FieldNode[] {
    return (this.field.children ?? []).map(
      (child) => new FieldNode(this.orderId, child, `${this.path}/${encodeURIComponent(child.key)}`, this),
    );
  }
}
