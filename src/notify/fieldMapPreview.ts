import * as vscode from 'vscode';
import { type FieldMapPreview, type PreviewPart } from '../api/normalise/fieldMap';
import { type Order } from '../api/models';
import { formatMoney } from '../util/money';
import { forMessage } from './inert';
import { stateText } from './orderWords';
import { reasonText } from './reasonText';

/** What a field map reads from the last answers, a line each, for the modal that asks to save it. */
export function fieldMapPreviewText(preview: FieldMapPreview, unread: readonly string[] = []): string {
  const { orders, order, balance, invoices } = preview;
  const lines: string[] = [];
  if (orders) {
    lines.push(...(orders.value ?? []).map(orderLine));
    if (orders.value?.length === 0) lines.push(vscode.l10n.t('No servers are read from the last list.'));
    lines.push(...failure(orders));
  }
  if (order?.value) lines.push(vscode.l10n.t('One server: {0}', orderLine(order.value)));
  if (order) lines.push(...failure(order));
  if (balance?.value) {
    const { amount, currency } = balance.value;
    lines.push(vscode.l10n.t('Balance: {0}', formatMoney(amount, currency, vscode.env.language)));
  }
  if (balance) lines.push(...failure(balance));
  if (invoices?.value) {
    const numbers = invoices.value.map((invoice) => forMessage(invoice.number ?? invoice.id, 40));
    lines.push(vscode.l10n.t('Invoices: {0}', numbers.join(', ') || '—'));
  }
  if (invoices) lines.push(...failure(invoices));
  for (const miss of preview.misses) {
    lines.push(
      miss.entries === undefined
        ? vscode.l10n.t('"{0}" finds nothing in the last answer.', miss.key)
        : vscode.l10n.t('"{0}" finds nothing in {1} of the entries looked at.', miss.key, miss.entries),
    );
  }
  for (const path of unread) {
    lines.push(
      vscode.l10n.t(
        'The last answer to {0} is too long or not JSON: the map is not tried on it.',
        forMessage(path, 100),
      ),
    );
  }
  return lines.length
    ? lines.join('\n')
    : vscode.l10n.t('Nothing has been received yet to preview it on: the map is used from the next read.');
}

function orderLine(order: Order): string {
  return [forMessage(order.label, 60), stateText(order), order.address && forMessage(order.address, 60)]
    .filter(Boolean)
    .join(' · ');
}

/** Why a part could not be read, and how many entries of a list were left out. */
function failure(part: PreviewPart<unknown>): string[] {
  const lines: string[] = [];
  if (part.error) {
    lines.push(part.error.reason ? reasonText(part.error.reason) : forMessage(part.error.message, 200));
  }
  if (part.skipped) lines.push(vscode.l10n.t('{0} entries cannot be read.', part.skipped));
  return lines;
}
