import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { type AccountModel } from '../../accounts/AccountModel';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/accountList';
import { type Order } from '../../api/models';
import { forDocument } from '../../notify/inert';
import { plain } from '../../util/serverText';

export const DETAILS_SCHEME = 'hosting-account';

/**
 * `hosting-account://<account>/<order id>/<name>.json`: the account is the authority (none for the first account, whose
 * URIs are as they always were), the id one encoded path segment, the name only for the tab title.
 */
export function orderDetailsUri(account: Account, order: Order): vscode.Uri {
  const name = `${plain(order.label)
    .slice(0, 60)
    .replace(/[\\/:*?"<>|\p{C}]+/gu, '_')}.json`;
  return vscode.Uri.from({
    scheme: DETAILS_SCHEME,
    authority: account.id === DEFAULT_ACCOUNT_ID ? '' : account.id,
    path: `/${encodeURIComponent(order.id)}/${name}`,
  });
}

/** Read-only documents with every field of an order, as the server sent it; a document never reads another account. */
export class OrderDetailsDocument implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly model: AccountModel) {}

  /** The server was asked again: an open document of this order shows the new answer. */
  refresh(account: Account, order: Order): void {
    this.emitter.fire(orderDetailsUri(account, order));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    let id: string;
    try {
      id = decodeURIComponent(uri.path.split('/')[1] ?? '');
    } catch {
      throw new Error(vscode.l10n.t('This is not the address of a server of yours.'));
    }
    const account = this.model.get(uri.authority || DEFAULT_ACCOUNT_ID);
    if (!account) throw new Error(vscode.l10n.t('This account was removed.'));
    const order = await account.store.orderDetails(id);
    // Escaped invisible and bidi characters show as what they are in the editor, never reorder the text around them.
    return `${forDocument(JSON.stringify(order.raw, null, 2))}\n`;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
