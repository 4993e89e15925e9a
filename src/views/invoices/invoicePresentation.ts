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

const LOOKS: Readonly<Record<InvoiceStatus, Omit<InvoiceLook, 'contextValue'>>> = {
  paid: { icon: 'pass', color: 'testing.iconPassed', attention: false },
  unpaid: { icon: 'circle-large-outline', color: 'problemsWarningIcon.foreground', attention: true },
  overdue: { icon: 'error', color: 'problemsErrorIcon.foreground', attention: true },
  cancelled: { icon: 'circle-slash', color: 'disabledForeground', attention: false },
  unknown: { icon: 'file', attention: false },
};

export function invoiceLook(invoice: Invoice): InvoiceLook {
  return { contextValue: `invoice.${invoice.status}${invoice.url ? '.link' : ''}`, ...LOOKS[invoice.status] };
}

export function newestFirst(invoices: readonly Invoice[]): Invoice[] {
  const timed = invoices.map((invoice) => ({ invoice, at: Date.parse(plain(invoice.date ?? '').slice(0, 64)) }));
  // An unreadable date sorts last; two of them compare equal, so the stable sort keeps the server's order.
  const key = (at: number): number => (Number.isNaN(at) ? -Infinity : at);
  return timed.sort((a, b) => key(b.at) - key(a.at) || 0).map(({ invoice }) => invoice);
}
