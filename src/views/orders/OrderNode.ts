import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { type Order } from '../../api/models';
import { forLabel, forMarkdown } from '../../notify/inert';
import { progressLabel, stateText } from '../../notify/orderWords';
import { type PendingAction } from '../../store/types';
import { fieldsMarkdown, fieldsOf } from '../fields';
import { orderLook, withAddress } from './orderPresentation';

/**
 * One order in the tree. The object lives as long as the order does in its account's session, so VS Code keeps its
 * selection and expansion. It knows its account and the session it was made in: a command on it acts in that account,
 * on that order id, and not at all once the account's key or address changed (another order may have the id now).
 */
export class OrderNode {
  constructor(
    readonly account: Account,
    /** The store's session when the node was made (see Store.generation). */
    readonly generation: number,
    public order: Order,
  ) {}

  get id(): string {
    return this.order.id;
  }

  /** Whether the node still speaks for the account's current session (same key, same address). */
  get current(): boolean {
    return this.generation === this.account.store.generation;
  }

  /** What the row last showed of its renewal, so a new forecast redraws only the rows it changes. */
  drawnRenewal = '';

  /** `renewalWarning`: a renewal within the warning window that the balance does not cover. */
  toTreeItem(
    pending: PendingAction | undefined,
    idPrefix: string,
    stale: boolean,
    renewalWarning = false,
  ): vscode.TreeItem {
    const { order } = this;
    const look = orderLook(order.state, pending?.action);
    const item = new vscode.TreeItem(forLabel(order.label), vscode.TreeItemCollapsibleState.Collapsed);
    // Ids must be unique and stable: the label and state change, the order id does not.
    item.id = `${idPrefix}order/${encodeURIComponent(order.id)}`;
    item.contextValue = withAddress(look.contextValue, order);
    // A stale account's rows keep their last state, dimmed and said to be stale: no row passes for fresh.
    const color = stale ? 'disabledForeground' : renewalWarning ? 'problemsWarningIcon.foreground' : look.color;
    item.iconPath = new vscode.ThemeIcon(look.icon, color ? new vscode.ThemeColor(color) : undefined);
    const state = pending ? progressLabel(pending.action) : stateText(order);
    // A narrow sidebar cuts the end of the row. At rest the address comes first (the icon shows the state too); while
    // an action runs, its progress does, since that is what the user is waiting to see.
    const address = order.address && order.address !== order.label ? forLabel(order.address, 60) : undefined;
    const parts = !address ? [state] : pending ? [state, address] : [address, state];
    if (stale) parts.push(vscode.l10n.t('stale'));
    const warning = renewalWarning ? vscode.l10n.t('renewal not covered') : '';
    if (warning) parts.push(warning);
    item.description = parts.join(' · ');
    item.accessibilityInformation = {
      label: [forLabel(order.label), state, stale ? vscode.l10n.t('stale') : '', warning].filter(Boolean).join(', '),
    };
    return item;
  }

  /**
   * Built only when the user hovers: with thousands of orders, eager tooltips would cost more than the tree. `renewal`:
   * the lines about its renewal (Markdown, server text in them already made inert).
   */
  tooltip(stale: string | undefined, renewal: readonly string[] = []): vscode.MarkdownString {
    const { order } = this;
    const head = `**${forMarkdown(order.label)}** · ${forMarkdown(stateText(order))}`;
    const note = stale ? `\n\n$(warning) ${forMarkdown(stale)}` : '';
    const renews = renewal.length ? `\n\n${renewal.join('  \n')}` : '';
    const markdown = new vscode.MarkdownString(
      `${head}${note}${renews}\n\n${fieldsMarkdown(fieldsOf(order.raw), moreFields)}`,
      true,
    );
    markdown.supportHtml = false;
    markdown.isTrusted = false;
    return markdown;
  }
}

/** What a tooltip or a tree says for the fields of a long answer it leaves out. */
export function moreFields(count: number): string {
  return vscode.l10n.t('… {0} more (Show Server Details shows what the server sent)', count);
}
