import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { InvoiceNode } from '../views/invoices/InvoicesTree';
import { OrderNode } from '../views/orders/OrderNode';
import { sentUri } from '../views/ServerAnswerDocument';

/** Opens what the server last sent (masked, read-only): for a row, the answers it was read from; else all of them. */
export async function showServerAnswer(account: Account, arg: unknown): Promise<void> {
  const topic = arg instanceof OrderNode ? 'orders' : arg instanceof InvoiceNode ? 'invoices' : 'all';
  await vscode.window.showTextDocument(sentUri(account, topic), { preview: true });
}
