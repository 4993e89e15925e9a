import * as vscode from 'vscode';
import { type Account } from '../../accounts/Account';
import { type Order } from '../../api/models';
import { forDocument } from '../../notify/inert';
import { plain } from '../../util/serverText';
import { documentUri, ReadOnlyDocument, removedText } from '../ReadOnlyDocument';

export const DETAILS_SCHEME = 'hosting-account';

// The id is one encoded path segment: it comes back exact.
export function orderDetailsUri(account: Account, order: Order): vscode.Uri {
  const name = plain(order.label).slice(0, 60);
  return documentUri(DETAILS_SCHEME, account, name, 'json', `${encodeURIComponent(order.id)}/`);
}

export class OrderDetailsDocument extends ReadOnlyDocument implements vscode.TextDocumentContentProvider {
  protected readonly scheme = DETAILS_SCHEME;
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
    const account = this.accountOf(uri);
    if (!account) return removedText();
    const order = await account.store.orderDetails(id);
    return `${forDocument(JSON.stringify(order.raw, null, 2))}\n`;
  }
}
