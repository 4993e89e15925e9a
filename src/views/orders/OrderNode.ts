import * as vscode from 'vscode';
import { type Order } from '../../api/models';
import { type PendingAction } from '../../store/types';
import { fieldsMarkdown, fieldsOf } from '../fields';
import { escapeMarkdown } from '../text';
import { orderLook, withAddress } from './orderPresentation';
import { progressLabel, stateText } from './orderStrings';

/** One order in the tree. The object lives as long as the order does, so VS Code keeps its selection and expansion. */
export class OrderNode {
  /** `owner`: the tree (one per account) that made it, so a command never looks its id up in another account. */
  constructor(
    public order: Order,
    readonly owner?: object,
  ) {}

  get id(): string {
    return this.order.id;
  }

  toTreeItem(pending: PendingAction | undefined): vscode.TreeItem {
    const { order } = this;
    const look = orderLook(order.state, pending?.action);
    const item = new vscode.TreeItem(order.label, vscode.TreeItemCollapsibleState.Collapsed);
    // Ids must be unique and stable: the label and state change, the order id does not.
    item.id = `order/${encodeURIComponent(order.id)}`;
    item.contextValue = withAddress(look.contextValue, order);
    item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
    const state = pending ? progressLabel(pending.action) : stateText(order);
    // A narrow sidebar cuts the end of the row. At rest the address comes first (the icon shows the state too); while
    // an action runs, its progress does, since that is what the user is waiting to see.
    const address = order.address && order.address !== order.label ? order.address : undefined;
    item.description = !address ? state : pending ? `${state} · ${address}` : `${address} · ${state}`;
    item.accessibilityInformation = { label: `${order.label}, ${state}` };
    return item;
  }

  /** Built only when the user hovers: with thousands of orders, eager tooltips would cost more than the tree. */
  tooltip(): vscode.MarkdownString {
    const { order } = this;
    const markdown = new vscode.MarkdownString(
      `**${escapeMarkdown(order.label)}** · ${escapeMarkdown(stateText(order))}\n\n${fieldsMarkdown(fieldsOf(order.raw))}`,
    );
    markdown.supportHtml = false;
    markdown.isTrusted = false;
    return markdown;
  }
}
