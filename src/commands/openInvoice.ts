import * as vscode from 'vscode';
import { InvoiceNode } from '../views/invoices/InvoicesTree';
import { type CommandHost } from './CommandHost';

/** Opens the invoice a command was invoked on (its link is http(s) only: the readers keep nothing else). */
export async function openInvoice(host: CommandHost, arg?: unknown): Promise<void> {
  const url = arg instanceof InvoiceNode && host.model.accountOf(arg) ? arg.invoice.url : undefined;
  if (url) await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
