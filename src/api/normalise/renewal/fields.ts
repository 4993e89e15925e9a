import { CURRENCY_FIELDS } from '../money';

/**
 * The names billing panels give an order's renewal fields, per role, in order of preference. A name matches as sent
 * or compared without case, `_` or `-`; the first field present decides its role.
 */
export const RENEWAL_FIELDS = {
  /** The next due date, then expiry and paid-until dates (the same day for prepaid orders). */
  date: [
    'nextduedate',
    'next_due_date',
    'next_due',
    'next_renewal_date',
    'expires_at',
    'expiry_date',
    'expiredate',
    'expiration_date',
    'date_renews',
    'renews_at',
    'paid_until',
    'date_paid_through',
    'renewal_date',
  ],
  /** A price set for this order, then recurring prices, plain prices and totals; `…_cents`/`…_minor` in minor units. */
  price: [
    'override_price',
    'recurringamount',
    'recurring_amount',
    'recurring_amount_cents',
    'renewal_price',
    'renewal_price_cents',
    'price_renews',
    'recurring_price',
    'price',
    'price_cents',
    'price_minor',
    'cost',
    'price_monthly',
    'monthly_price',
    'amount',
    'amount_cents',
    'amount_minor',
    'total',
    'total_cents',
  ],
  currency: CURRENCY_FIELDS,
  /** A whole cycle: "Monthly", "3 months". */
  cycle: ['billingcycle', 'billing_cycle', 'cycle', 'billing_frequency', 'frequency', 'recurrence'],
  /** A unit ("month") or a whole cycle word. */
  unit: ['billing_unit', 'period_unit', 'interval_unit', 'term_unit', 'period', 'billing_period', 'interval'],
  /** The count that goes with a unit (Blesta `term`, Paymenter `billing_period`). */
  count: ['billing_period', 'term', 'interval', 'interval_count', 'period_count', 'billing_interval', 'period'],
  renews: ['auto_renew', 'autorenew', 'auto_renewal', 'autoprolong', 'auto_prolong', 'renew_automatically'],
  doesNotRenew: ['donotrenew', 'do_not_renew', 'cancel_at_period_end'],
  /** Objects inside an order that carry its price and cycle: Blesta `package_pricing`, plans, subscriptions. */
  nested: ['package_pricing', 'pricing', 'billing', 'renewal', 'subscription', 'plan', 'product_pricing'],
} as const;

/** Prices that say the cycle is a month. */
export const MONTHLY_PRICES: readonly string[] = ['price_monthly', 'monthly_price'];
/** Renew flags that hold the renewal period in months, or `off` (BILLmanager `autoprolong`). */
export const RENEW_MONTHS: readonly string[] = ['autoprolong', 'auto_prolong'];
/** Prices with a currency field of their own (Blesta's override). */
export const OWN_CURRENCY: Readonly<Record<string, string>> = { override_price: 'override_currency' };
