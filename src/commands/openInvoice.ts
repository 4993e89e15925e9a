import * as vscode from 'vscode';
import { type CommandContext } from './CommandContext';

export async function openInvoice(ctx: CommandContext, arg?: unknown): Promise<void> {
  const url = ctx.invoices.asInvoiceNode(arg)?.invoice.url;
  if (url) await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
