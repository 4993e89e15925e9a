/**
 * Which fields of an order say when it renews, for how much, how often and whether on its own, in the names billing
 * panels use (WHMCS, HostBill, Blesta, BILLmanager, Paymenter and the generic ones). Looked up as `lookup` does:
 * exact names first, then names compared without case, `_` or `-`. Orders of one list share their keys, so what an
 * object's keys hold is worked out once per shape of keys and reused.
 */

import { type RawObject } from '../../models';
import { CURRENCY_FIELDS } from '../money';
import { sameKeys, squash } from '../read';

export type Scale = 'units' | 'cents' | 'minor';

/** In order of preference: the server's next due date, then expiry and paid-until dates (the same day for prepaid). */
const DATE_FIELDS = [
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
];
/** A price set for this order first (Blesta `override_price`), then recurring prices, then plain prices and totals. */
const PRICE_FIELDS: ReadonlyArray<readonly [string, Scale]> = [
  ['override_price', 'units'],
  ['recurringamount', 'units'],
  ['recurring_amount', 'units'],
  ['recurring_amount_cents', 'cents'],
  ['renewal_price', 'units'],
  ['renewal_price_cents', 'cents'],
  ['price_renews', 'units'],
  ['recurring_price', 'units'],
  ['price', 'units'],
  ['price_cents', 'cents'],
  ['price_minor', 'minor'],
  ['cost', 'units'],
  ['price_monthly', 'units'],
  ['monthly_price', 'units'],
  ['amount', 'units'],
  ['amount_cents', 'cents'],
  ['amount_minor', 'minor'],
  ['total', 'units'],
  ['total_cents', 'cents'],
];
/** Fields holding a whole cycle ("Monthly", "3 months"). */
const CYCLE_FIELDS = ['billingcycle', 'billing_cycle', 'cycle', 'billing_frequency', 'frequency', 'recurrence'];
/** Fields holding a unit ("month"), or a whole cycle word. */
const UNIT_FIELDS = [
  'billing_unit',
  'period_unit',
  'interval_unit',
  'term_unit',
  'period',
  'billing_period',
  'interval',
];
/** Fields holding the count that goes with a unit (Blesta `term`, Paymenter `billing_period`). */
const COUNT_FIELDS = [
  'billing_period',
  'term',
  'interval',
  'interval_count',
  'period_count',
  'billing_interval',
  'period',
];
/** Flags that say the order renews; then the inverted ones, which say it does not. */
const RENEW_FIELDS = ['auto_renew', 'autorenew', 'auto_renewal', 'autoprolong', 'auto_prolong', 'renew_automatically'];
const NO_RENEW_FIELDS = ['donotrenew', 'do_not_renew', 'cancel_at_period_end'];
/** Objects inside an order that carry its price: Blesta `package_pricing`, subscription and plan objects. */
const NESTED_FIELDS = ['package_pricing', 'pricing', 'billing', 'renewal', 'subscription', 'plan', 'product_pricing'];

/** The keys of one shape that each role may read, in order of preference. */
export interface Plan {
  readonly date: readonly string[];
  readonly price: ReadonlyArray<readonly [string, Scale]>;
  readonly currency: readonly string[];
  readonly cycle: readonly string[];
  readonly unit: readonly string[];
  readonly count: readonly string[];
  readonly renew: ReadonlyArray<readonly [string, boolean]>;
  readonly nested: readonly string[];
  /** False when the shape has none of these keys: most cloud orders. */
  readonly any: boolean;
}

/** Keys looked at per object: a wider hostile object is read by its first keys only. */
const MAX_KEYS = 256;
const RECENT = 8;

/** The object's keys, exactly and by squashed name (the first key of each squashed name, as `lookup` has it). */
interface KeyIndex {
  readonly exact: ReadonlySet<string>;
  readonly squashed: ReadonlyMap<string, string>;
}

function candidates<T>(names: readonly T[], nameOf: (entry: T) => string, keys: KeyIndex): Array<[string, T]> {
  const found: Array<[string, T]> = [];
  const seen = new Set<string>();
  for (const entry of names) {
    const name = nameOf(entry);
    if (keys.exact.has(name) && !seen.has(name)) {
      seen.add(name);
      found.push([name, entry]);
    }
  }
  for (const entry of names) {
    const key = keys.squashed.get(squash(nameOf(entry)));
    if (key !== undefined && !seen.has(key)) {
      seen.add(key);
      found.push([key, entry]);
    }
  }
  return found;
}

function keysOf(names: readonly string[], keys: KeyIndex): string[] {
  return candidates(names, (name) => name, keys).map(([key]) => key);
}

function buildPlan(list: readonly string[]): Plan {
  const squashed = new Map<string, string>();
  for (const key of list) if (!squashed.has(squash(key))) squashed.set(squash(key), key);
  const index: KeyIndex = { exact: new Set(list), squashed };
  const plan = {
    date: keysOf(DATE_FIELDS, index),
    price: candidates(PRICE_FIELDS, ([name]) => name, index).map(([key, [, scale]]) => [key, scale] as const),
    currency: keysOf(['override_currency', ...CURRENCY_FIELDS], index),
    cycle: keysOf(CYCLE_FIELDS, index),
    unit: keysOf(UNIT_FIELDS, index),
    count: keysOf(COUNT_FIELDS, index),
    renew: [
      ...keysOf(RENEW_FIELDS, index).map((key) => [key, false] as const),
      ...keysOf(NO_RENEW_FIELDS, index).map((key) => [key, true] as const),
    ],
    nested: keysOf(NESTED_FIELDS, index),
  };
  const any =
    plan.date.length +
      plan.price.length +
      plan.cycle.length +
      plan.unit.length +
      plan.renew.length +
      plan.nested.length >
    0;
  return { ...plan, any };
}

interface Remembered {
  readonly keys: readonly string[];
  readonly plan: Plan;
}

/** Plans of the last few shapes seen: the ten thousand orders of a list share one or two. */
export class PlanCache {
  private readonly recent: Remembered[] = [];

  planOf(obj: RawObject): Plan {
    for (const remembered of this.recent) if (sameKeys(obj, remembered.keys)) return remembered.plan;
    const keys: string[] = [];
    for (const key in obj) {
      if (keys.length >= MAX_KEYS) break;
      keys.push(key);
    }
    const plan = buildPlan(keys);
    if (keys.length < MAX_KEYS) {
      this.recent.unshift({ keys, plan });
      if (this.recent.length > RECENT) this.recent.pop();
    }
    return plan;
  }
}
