import * as vscode from 'vscode';
import { InvoiceNode } from '../views/invoices/InvoicesTreeProvider';

/** Opens the invoice a command was invoked on; `InvoiceNode` is one class at run time in every bundle. */
export async function openInvoice(arg?: unknown): Promise<void> {
  const url = arg instanceof InvoiceNode ? arg.invoice.url : undefined;
  if (url) await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
