import { CURRENCY_FIELDS } from '../money';
import { names, words } from '../read';

/** Per role, in order of preference; the first field present decides its role. */
export const RENEWAL_FIELDS = {
  /** Then expiry and paid-until dates (the same day for prepaid orders). */
  date: names(
    'nextduedate next_due_date next_due next_renewal_date next_invoice_date next_billing_date next_payment_date ' +
      'renewal_date renews_at renew_at renewal_at renews_on expires_at expiry_date expiredate expiration_date ' +
      'expiration expires_on expiry expire_at date_renews paid_until paid_till date_paid_through valid_until ' +
      'current_period_end',
  ),
  price: names(
    'override_price recurringamount recurring_amount recurring_amount_cents renewal_price renewal_price_cents ' +
      'renew_price renewal_amount renewal_cost price_renews recurring_price recurring_fee next_invoice_amount ' +
      'price price_cents price_minor cost price_monthly monthly_price amount amount_cents amount_minor total ' +
      'total_cents',
  ),
  currency: CURRENCY_FIELDS,
  cycle: names('billingcycle billing_cycle cycle billing_frequency frequency recurrence renewal_period renew_period'),
  unit: names('billing_unit period_unit interval_unit term_unit period billing_period interval'),
  count: names('billing_period term interval interval_count period_count billing_interval period period_time'),
  renews: names(
    'auto_renew autorenew auto_renewal auto_renewal_enabled automatic_renewal is_auto_renew renew_automatically ' +
      'autoprolong auto_prolong autopay auto_pay automatic',
  ),
  doesNotRenew: names('donotrenew do_not_renew cancel_at_period_end delete_at_expiration cancelled'),
  nested: names('package_pricing pricing billing renewal renew subscription plan product_pricing'),
} as const;

export const MONTHLY_PRICES: readonly string[] = words('pricemonthly monthlyprice');
/** Renew flags that hold the period in months, or `off` (BILLmanager). */
export const RENEW_MONTHS: readonly string[] = words('autoprolong');
export const OWN_CURRENCY: Readonly<Record<string, string>> = { overrideprice: 'override_currency' };
