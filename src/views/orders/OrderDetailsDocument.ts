import * as vscode from 'vscode';
import { type Order } from '../../api/models';
import { type Store } from '../../store/Store';

export const DETAILS_SCHEME = 'hosting-account';

/** `account`: an added account's id, as the URI's authority; none for the first account, whose URIs are as always. */
export function orderDetailsUri(order: Order, account = ''): vscode.Uri {
  // The id is data from the server: encoded as one path segment, with the label only for the tab title.
  const name = `${order.label.replace(/[\\/:*?"<>|]+/g, '_')}.json`;
  return vscode.Uri.from({
    scheme: DETAILS_SCHEME,
    authority: account,
    path: `/${encodeURIComponent(order.id)}/${name}`,
  });
}

/** Read-only documents with every field of an order, as the server sent it. */
export class OrderDetailsDocument implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  /** The store of an added account, by id (set by the accounts bundle): a document never reads another account. */
  accounts?: (id: string) => Store | undefined;

  constructor(private readonly store: Store) {}

  /** The server was asked again: an open document of this order shows the new answer. */
  refresh(order: Order, account?: string): void {
    this.emitter.fire(orderDetailsUri(order, account));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = decodeURIComponent(uri.path.split('/')[1] ?? '');
    const store = uri.authority ? this.accounts?.(uri.authority) : this.store;
    if (!store) throw new Error(vscode.l10n.t('This account was removed.'));
    const order = await store.orderDetails(id);
    return `${JSON.stringify(order.raw, null, 2)}\n`;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
