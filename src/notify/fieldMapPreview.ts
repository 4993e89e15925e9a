import * as vscode from 'vscode';
import { type FieldMapPreview, type PreviewPart } from '../api/normalise/fieldMap';
import { formatMoney } from '../util/money';
import { forMessage } from './inert';
import { stateText } from './orderWords';
import { reasonText } from './reasonText';

/** What a field map reads from the last answers, a line each, for the modal that asks to save it. */
export function fieldMapPreviewText(preview: FieldMapPreview): string {
  const { orders, balance, invoices } = preview;
  const lines: string[] = [];
  if (orders) {
    lines.push(
      ...(orders.value ?? []).map((order) =>
        [forMessage(order.label, 60), stateText(order), order.address && forMessage(order.address, 60)]
          .filter(Boolean)
          .join(' · '),
      ),
    );
    if (orders.value?.length === 0) lines.push(vscode.l10n.t('No servers are read from the last list.'));
    lines.push(...failure(orders));
  }
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
  return lines.length
    ? lines.join('\n')
    : vscode.l10n.t('Nothing has been received yet to preview it on: the map is used from the next read.');
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
