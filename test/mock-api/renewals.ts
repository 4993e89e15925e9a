// Renewal fields of the mock's orders, dated from the mock's clock so a demo or a test always sees the same picture:
// with the seed's balance of 42.50, analytics-worker (79.90) renews in 3 days and is not covered, staging-box renews
// tomorrow and is, legacy-mail does not renew, and the rest renew after the 7-day warning window. Two dialects:
// 'standard' (next_due_date, recurring_amount + currency, billing_cycle, auto_renew) and the WHMCS-like 'paged'
// (nextduedate, recurringamount, billingcycle, donotrenew). The other shapes keep the seed's fixed `renews_at`.
import { type ApiShape, type OrderRecord } from './types';

export interface RenewalPlan {
  /** Days from the mock's today (UTC) to the next renewal. */
  readonly inDays: number;
  readonly months: 1 | 3;
  readonly autoRenew: boolean;
}

const DAY_MS = 86_400_000;

/** The seed's orders by id; generated and custom orders get a plan derived from their id. */
export const SEED_PLANS: Readonly<Record<string, RenewalPlan>> = {
  '1001': { inDays: 12, months: 1, autoRenew: true },
  '1002': { inDays: 20, months: 1, autoRenew: true },
  '1003': { inDays: 1, months: 1, autoRenew: true },
  '1004': { inDays: 40, months: 3, autoRenew: true },
  '1005': { inDays: 5, months: 1, autoRenew: false },
  '1006': { inDays: 3, months: 1, autoRenew: true },
};

export function renewalPlan(o: OrderRecord): RenewalPlan {
  const id = String(o.id);
  const seeded = SEED_PLANS[id];
  if (seeded) return seeded;
  let sum = 0;
  for (let i = 0; i < id.length && i < 64; i++) sum += id.charCodeAt(i);
  return { inDays: 8 + (sum % 21), months: 1, autoRenew: true };
}

/** The mock's calendar day `inDays` after `now`, in UTC. */
export function mockDay(now: number, inDays: number): string {
  return new Date(now + inDays * DAY_MS).toISOString().slice(0, 10);
}

/** The renewal fields a shape adds to an order, none for the shapes that have none. */
export function renewalFields(shape: ApiShape, o: OrderRecord, now: number): Record<string, unknown> {
  const plan = renewalPlan(o);
  const day = mockDay(now, plan.inDays);
  const amount = (o.price_monthly * plan.months).toFixed(2);
  switch (shape) {
    case 'standard':
      return {
        next_due_date: day,
        recurring_amount: amount,
        billing_cycle: plan.months === 1 ? 'monthly' : 'quarterly',
        auto_renew: plan.autoRenew,
        renews_at: `${day}T00:00:00Z`,
      };
    case 'paged':
      return {
        nextduedate: day,
        recurringamount: amount,
        billingcycle: plan.months === 1 ? 'Monthly' : 'Quarterly',
        donotrenew: plan.autoRenew ? 0 : 1,
      };
    case 'ids':
      return { expiration: day, renew: { automatic: plan.autoRenew, period: plan.months === 1 ? 'P1M' : 'P3M' } };
    case 'bare':
    case 'alt':
    case 'jsonapi':
      return {};
  }
}
