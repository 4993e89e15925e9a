import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { type Order, type OrderAction } from '../api/models';
import { type FolderBinding } from '../folder/bindings';
import { type FolderBindings } from '../folder/FolderBindings';
import { forLabel, forMarkdown } from '../notify/inert';
import { progressLabel, stateText } from '../notify/orderWords';
import { renewalTooltipLines } from '../notify/renewalWords';
import { addressesOf } from '../ssh/addresses';
import { plain } from '../util/serverText';
import { Disposable } from '../util/lifecycle';
import { contextSetter } from './contextKeys';
import { orderLook } from './orders/orderPresentation';

const MAX_NAME = 32;
const MAX_ADDRESSES_SHOWN = 4;
// The palette offers Unbind and the item's actions only while there is a server.
const BOUND = 'hostingAccount.folderBound';

type FolderServerView =
  | { readonly kind: 'hidden' }
  | { readonly kind: 'listed'; readonly account: Account; readonly order: Order; readonly pending?: OrderAction }
  // Not listed yet, or the list was cut short: its name as last seen, no state.
  | { readonly kind: 'waiting'; readonly account: Account; readonly binding: FolderBinding }
  | { readonly kind: 'gone'; readonly account: Account; readonly binding: FolderBinding };

/** The active folder's server as the tree shows it, from what the store has: it adds no request. */
export class FolderServerItem extends Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly setContext = contextSetter();
  private shown = false;

  constructor(
    private readonly model: AccountModel,
    private readonly bindings: FolderBindings,
  ) {
    super();
    this.item = this.register(
      vscode.window.createStatusBarItem('hostingAccount.folderServer', vscode.StatusBarAlignment.Left, 50),
    );
    this.item.name = vscode.l10n.t("Hosting: This Folder's Server");
    const mine = (account: Account): boolean => this.bindings.active?.binding.accountId === account.id;
    this.register(bindings.onDidChange(() => this.update()));
    this.register(model.onDidChange(() => this.update()));
    this.register(model.onDidChangeState((account) => mine(account) && this.update()));
    this.register(model.onDidChangeOrders(({ account }) => mine(account) && this.update()));
    this.register(model.onDidChangeData(({ account, value }) => value === 'orders' && mine(account) && this.update()));
    this.register({ dispose: () => this.setContext(BOUND, false) });
    this.update();
  }

  get view(): FolderServerView {
    const active = this.bindings.active;
    if (!active) return { kind: 'hidden' };
    const { binding } = active;
    const account = this.model.get(binding.accountId);
    if (!account) return { kind: 'hidden' };
    const { store } = account;
    // Signed out: the item goes with the account's other views.
    if (!['ready', 'unreachable', 'loading'].includes(store.state)) return { kind: 'hidden' };
    const order = store.orders.get(binding.orderId);
    if (order) return { kind: 'listed', account, order, pending: store.pending(order.id)?.action };
    const whole = store.ordersInfo.updatedAt !== undefined && store.listCoverage('orders') === undefined;
    return { kind: store.state === 'ready' && whole ? 'gone' : 'waiting', account, binding };
  }

  update(): void {
    const view = this.view;
    this.setContext(BOUND, view.kind !== 'hidden');
    if (view.kind === 'hidden') {
      this.shown = false;
      this.item.hide();
      return;
    }
    const { item } = this;
    item.backgroundColor = undefined;
    item.color = undefined;
    if (view.kind === 'listed') {
      const { order, pending } = view;
      const look = orderLook(order.state, pending);
      const word = pending ? progressLabel(pending) : stateText(order);
      item.text = `$(${look.icon}) ${forLabel(order.label, MAX_NAME)} · ${word}`;
      item.color = look.color ? new vscode.ThemeColor(look.color) : undefined;
      item.accessibilityInformation = { label: `${accessibleName(forLabel(order.label, MAX_NAME))}, ${word}` };
      // The name kept with the binding follows the server's, so a server gone later is still named.
      if (plain(order.label) !== this.bindings.active?.binding.name) {
        void this.bindings.rename(view.account.id, order.id, plain(order.label)).catch(() => undefined);
      }
    } else {
      const name = boundName(view.binding);
      if (view.kind === 'gone') {
        const gone = vscode.l10n.t('Gone');
        item.text = `$(warning) ${name} · ${gone}`;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        item.accessibilityInformation = { label: `${accessibleName(name)}, ${gone}` };
      } else {
        item.text = `$(vm) ${name}`;
        item.accessibilityInformation = { label: accessibleName(name) };
      }
    }
    item.tooltip = this.tooltip(view);
    item.command = {
      command: 'hostingAccount.folder.actions',
      title: vscode.l10n.t("Actions for This Folder's Server"),
    };
    this.shown = true;
    item.show();
  }

  get visible(): boolean {
    return this.shown;
  }

  private tooltip(view: Exclude<FolderServerView, { kind: 'hidden' }>): vscode.MarkdownString {
    const lines: string[] = [];
    const folder = this.bindings.activeFolder;
    if (view.kind === 'listed') {
      const { order, pending } = view;
      const word = pending ? progressLabel(pending) : stateText(order);
      lines.push(`**${forMarkdown(order.label, 120)}** · ${forMarkdown(word)}`);
      const addresses = addressesOf(order);
      if (addresses.length) {
        const shown = addresses.slice(0, MAX_ADDRESSES_SHOWN).map((address) => forMarkdown(address, 80));
        if (addresses.length > MAX_ADDRESSES_SHOWN) shown.push('…');
        lines.push(vscode.l10n.t('Address: {0}', shown.join(', ')));
      }
      lines.push(...renewalTooltipLines(view.account.forecast(), order));
      if (view.account.store.ordersInfo.error) {
        lines.push(`$(warning) ${vscode.l10n.t('The last refresh failed, so this may have changed.')}`);
      }
    } else {
      lines.push(`**${forMarkdown(view.binding.name ?? view.binding.orderId, 120)}**`);
      lines.push(
        view.kind === 'gone'
          ? `$(warning) ${vscode.l10n.t('This server is no longer in the account. Click to bind the folder to another server or unbind it.')}`
          : vscode.l10n.t('Its state shows once your servers are listed (the Orders view lists them).'),
      );
    }
    lines.push(vscode.l10n.t('Account: {0}', forMarkdown(view.account.name, 80)));
    if (folder) lines.push(vscode.l10n.t('Folder: {0}', forMarkdown(folder.name, 80)));
    lines.push('', vscode.l10n.t("Click for this server's actions."));
    const markdown = new vscode.MarkdownString(lines.join('  \n'), true);
    markdown.isTrusted = false;
    markdown.supportHtml = false;
    return markdown;
  }
}

function boundName(binding: FolderBinding): string {
  return forLabel(binding.name ?? binding.orderId, MAX_NAME);
}

function accessibleName(name: string): string {
  return vscode.l10n.t("This folder's server {0}", name);
}
