import * as vscode from 'vscode';
import { type ApiError } from '../api/errors';
import { type Slot } from '../store/types';
import { hostOf } from '../util/hosts';
import { forMessage } from './inert';
import { reasonText } from './reasonText';
import { tell } from './show';

const ORDERS_PATH = '/api/v1/orders';
const INVOICES_PATH = '/api/v1/invoices';

/**
 * Why a list shows nothing; undefined when it shows something, was not read yet, or failed otherwise than in reading
 * (a network failure is told as such). The path is the one asked, or the page link the server gave.
 */
export function noListText(
  what: 'orders' | 'invoices',
  slot: Slot<readonly unknown[]>,
  baseUrl: string,
): string | undefined {
  if (slot.value?.length) return undefined;
  const host = hostOf(baseUrl) || vscode.l10n.t('the hosting API');
  const error = slot.error;
  const path = forMessage(error?.path ?? (what === 'orders' ? ORDERS_PATH : INVOICES_PATH), 100);
  if (error) return error.kind === 'badResponse' ? unreadableText(what, host, path, error) : undefined;
  if (slot.updatedAt === undefined) return undefined;
  return what === 'orders'
    ? vscode.l10n.t('No servers could be read from {0}: the answer to GET {1} has no servers.', host, path)
    : vscode.l10n.t('No invoices could be read from {0}: the answer to GET {1} has no invoices.', host, path);
}

function unreadableText(what: 'orders' | 'invoices', host: string, path: string, error: ApiError): string {
  const { reason } = error;
  if (reason?.rule === 'unexpectedBody' && (reason.expected === 'orderList' || reason.expected === 'invoiceList')) {
    return what === 'orders'
      ? vscode.l10n.t('No servers could be read from {0}: the answer to GET {1} had no list of servers.', host, path)
      : vscode.l10n.t('No invoices could be read from {0}: the answer to GET {1} had no list of invoices.', host, path);
  }
  const why = reason ? reasonText(reason) : vscode.l10n.t('the answer could not be read');
  return what === 'orders'
    ? vscode.l10n.t('No servers could be read from {0}: {1}', host, why)
    : vscode.l10n.t('No invoices could be read from {0}: {1}', host, why);
}

/** Tells why there is nothing to pick, with the ways out: the log, and teaching the account where its data is. */
export async function tellNoList(message: string, account: unknown, failed: boolean): Promise<void> {
  const showLog = vscode.l10n.t('Show Log');
  const teach = vscode.l10n.t('Teach the Field Map…');
  // An empty list read without fault may be an account with no servers yet: no warning for that.
  const picked = await tell(failed ? 'warning' : 'info', message, showLog, teach);
  if (picked === showLog) await vscode.commands.executeCommand('hostingAccount.showLog');
  if (picked === teach) await vscode.commands.executeCommand('hostingAccount.account.editFieldMap', account);
}
