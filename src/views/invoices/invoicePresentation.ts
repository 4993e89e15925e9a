import { type Invoice, type InvoiceStatus } from '../../api/models';
import { plain } from '../../util/serverText';

type InvoiceContextValue = `invoice.${InvoiceStatus}${'' | '.link'}`;

export const INVOICE_CONTEXT_VALUES: readonly InvoiceContextValue[] = (
  ['paid', 'unpaid', 'overdue', 'cancelled', 'unknown'] as const
).flatMap((status) => [`invoice.${status}`, `invoice.${status}.link`] as const);

interface InvoiceLook {
  readonly contextValue: InvoiceContextValue;
  readonly icon: string;
  readonly color?: string;
  readonly attention: boolean;
}

export function invoiceLook(invoice: Invoice): InvoiceLook {
  const contextValue: InvoiceContextValue = `invoice.${invoice.status}${invoice.url ? '.link' : ''}`;
  switch (invoice.status) {
    case 'paid':
      return { contextValue, icon: 'pass', color: 'testing.iconPassed', attention: false };
    case 'unpaid':
      return { contextValue, icon: 'circle-large-outline', color: 'problemsWarningIcon.foreground', attention: true };
    case 'overdue':
      return { contextValue, icon: 'error', color: 'problemsErrorIcon.foreground', attention: true };
    case 'cancelled':
      return { contextValue, icon: 'circle-slash', color: 'disabledForeground', attention: false };
    case 'unknown':
      return { contextValue, icon: 'file', attention: false };
  }
}

export function newestFirst(invoices: readonly Invoice[]): Invoice[] {
  const timed = invoices.map((invoice) => ({ invoice, at: Date.parse(plain(invoice.date ?? '').slice(0, 64)) }));
  // An unreadable date sorts last; two of them compare equal, so the stable sort keeps the server's order.
  const key = (at: number): number => (Number.isNaN(at) ? -Infinity : at);
  return timed.sort((a, b) => key(b.at) - key(a.at) || 0).map(({ invoice }) => invoice);
}
