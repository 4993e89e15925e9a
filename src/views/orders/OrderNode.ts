import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { type Order } from '../../api/models';
import { hostProblemText } from '../../notify/hostWords';
import { forLabel, forMarkdown } from '../../notify/inert';
import { progressLabel, stateText } from '../../notify/orderWords';
import { type PendingAction } from '../../store/types';
import { fieldsMarkdown, fieldsOf } from '../fields';
import { orderLook, withAddress, withMarks } from './orderPresentation';
import { plain } from '../../util/serverText';

/** Lives as long as the order in its account's session; a command on an older session's node acts nowhere. */
export class OrderNode {
  constructor(
    readonly account: Account,
    readonly generation: number,
    public order: Order,
  ) {}

  get id(): string {
    return this.order.id;
  }

  get current(): boolean {
    return this.generation === this.account.store.generation;
  }

  // So a new forecast redraws only the rows it changes.
  drawnRenewal = '';
  // One of several selected: a menu opened on a row outside the selection offers that row's own actions.
  inSelection = false;

  toTreeItem(
    pending: PendingAction | undefined,
    idPrefix: string,
    stale: boolean,
    renewalWarning = false,
  ): vscode.TreeItem {
    const { order } = this;
    const look = orderLook(order.state, pending?.action);
    const mark = this.account.marks.of(order.id);
    const item = new vscode.TreeItem(forLabel(order.label), vscode.TreeItemCollapsibleState.Collapsed);
    // Orders that share an id (a broken server) are told apart by their place among themselves.
    const twin = order.duplicateId ? `#${order.duplicateId.index}` : '';
    item.id = `${idPrefix}order/${encodeURIComponent(order.id)}${twin}`;
    // An order whose id another one has too offers no action at all: the server would pick which one gets it.
    const value = order.duplicateId ? 'duplicateOrder' : withMarks(withAddress(look.contextValue, order), mark);
    item.contextValue = this.inSelection ? `${value}.selected` : value;
    // A stale account's rows keep their last state, dimmed: no row passes for fresh.
    const color = stale ? 'disabledForeground' : renewalWarning ? 'problemsWarningIcon.foreground' : look.color;
    const icon = mark.protected && look.icon !== 'loading~spin' ? 'lock' : look.icon;
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    const state = pending ? progressLabel(pending.action) : stateText(order);
    // A narrow sidebar cuts the end of the row: at rest the address first (the icon shows the state), else progress.
    const address = order.address && order.address !== plain(order.label) ? forLabel(order.address, 60) : undefined;
    const parts = !address ? [state] : pending ? [state, address] : [address, state];
    if (order.duplicateId) parts.unshift(vscode.l10n.t('same ID as another server'));
    if (mark.label) parts.push(forLabel(mark.label, 40));
    if (stale) parts.push(vscode.l10n.t('stale'));
    // First, like the twin mark: it is what the row is marked for.
    const warning = renewalWarning ? vscode.l10n.t('renewal not covered') : '';
    if (warning) parts.unshift(warning);
    item.description = parts.join(' · ');
    item.accessibilityInformation = {
      label: [
        forLabel(order.label),
        state,
        mark.protected ? vscode.l10n.t('protected') : '',
        stale ? vscode.l10n.t('stale') : '',
        warning,
      ]
        .filter(Boolean)
        .join(', '),
    };
    return item;
  }

  // Built on hover only: with thousands of orders, eager tooltips would cost more than the tree. `renewal` is inert.
  tooltip(stale: string | undefined, renewal: readonly string[] = [], last?: string): vscode.MarkdownString {
    const { order } = this;
    const head = `**${forMarkdown(order.label)}** · ${forMarkdown(stateText(order))}`;
    const notes = [...(stale ? [stale] : []), ...orderNotes(order)];
    const note = notes.map((text) => `\n\n$(warning) ${forMarkdown(text, 600)}`).join('');
    const renews = renewal.length ? `\n\n${renewal.join('  \n')}` : '';
    const history = last ? `\n\n$(history) ${forMarkdown(last, 300)}` : '';
    const teach = misread(order, this.account.id);
    const markdown = new vscode.MarkdownString(
      `${head}${note}${teach ? `\n\n$(info) ${teach}` : ''}${renews}${history}\n\n${fieldsMarkdown(fieldsOf(order.raw), moreFields)}`,
      true,
    );
    markdown.supportHtml = false;
    // The one link is ours, to our one command; server text in the tooltip is made inert and links nowhere.
    markdown.isTrusted = teach ? { enabledCommands: [TEACH] } : false;
    return markdown;
  }
}

const TEACH = 'hostingAccount.account.editFieldMap';

function misread(order: Order, accountId: string): string | undefined {
  const unnamed = plain(order.label) === `#${order.id}`;
  const stateless = order.state === 'unknown' && order.statusText === undefined;
  if (!unnamed && !stateless) return undefined;
  // The row's account, so that with several the link does not ask which.
  const args = encodeURIComponent(JSON.stringify([{ accountId }]))
    .replace(/\(/g, '%28')
    .replace(/\)/g, '%29');
  const link = `command:${TEACH}?${args}`;
  if (unnamed && stateless) {
    return vscode.l10n.t('No name and no state were found in this entry: [Teach the Field Map…]({0})', link);
  }
  return unnamed
    ? vscode.l10n.t('No name was found in this entry: [Teach the Field Map…]({0})', link)
    : vscode.l10n.t('No state was found in this entry: [Teach the Field Map…]({0})', link);
}

function orderNotes(order: Order): string[] {
  const notes: string[] = [];
  if (order.duplicateId) {
    notes.push(
      vscode.l10n.t(
        'The hosting API lists {0} servers with the ID {1}: none of them is offered an action, since the API would pick which one gets it.',
        order.duplicateId.count,
        forLabel(order.id, 80),
      ),
    );
  }
  for (const refused of order.refusedAddresses ?? []) {
    notes.push(
      vscode.l10n.t(
        'Address not used: {0} ({1}).',
        forLabel(JSON.stringify(plain(refused.value).slice(0, 80)), 90),
        hostProblemText(refused.problem),
      ),
    );
  }
  return notes;
}

export function moreFields(count: number): string {
  return vscode.l10n.t('… {0} more (Show Server Details shows what the server sent)', count);
}
