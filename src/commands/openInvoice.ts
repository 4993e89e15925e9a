import * as vscode from 'vscode';
import { InvoiceNode } from '../views/invoices/InvoicesTreeProvider';

export async function openInvoice(arg?: unknown): Promise<void> {
  if (!(arg instanceof InvoiceNode) || !arg.invoice.url) return;
  await vscode.env.openExternal(vscode.Uri.parse(arg.invoice.url, true));
}
