import { type ZoneOffset, dayOfInstant, parseDayText, systemZone } from '../util/calendar';
import { DEFAULT_WARNING_DAYS } from './forecast';
import { type Forecast, type ForecastRenewal } from './types';

export const WARNING_STEPS: readonly number[] = [7, 3, 1, 0];
export const KEEP_TOLD_DAYS = 62;

export interface RenewalNotice {
  readonly key: string;
  // 0 also when past due.
  readonly step: number;
  readonly daysAway: number;
  readonly renewal: ForecastRenewal;
}

export interface NoticeContext {
  readonly account: string;
  readonly told: ReadonlySet<string>;
  readonly now: number;
  readonly zone?: ZoneOffset;
  readonly steps?: readonly number[];
}

// See ARCHITECTURE.md's glossary: Notice key.
export function noticeKey(account: string, renewal: ForecastRenewal, step: number): string {
  const { source } = renewal;
  const subject =
    source.kind === 'order' ? encodeURIComponent(source.orderId) : `invoice/${encodeURIComponent(source.invoiceId)}`;
  const date = renewal.at === undefined ? renewal.day : new Date(renewal.at).toISOString();
  return `${encodeURIComponent(account)}/${subject}/${date}/${step}`;
}

function uncovered(renewal: ForecastRenewal): boolean {
  return renewal.kind === 'charge' && renewal.covered === false && renewal.autoRenew !== false;
}

export function noticesDue(forecast: Forecast, context: NoticeContext): RenewalNotice[] {
  const steps = [...(context.steps ?? WARNING_STEPS)]
    .filter((s) => Number.isInteger(s) && s >= 0)
    .sort((a, b) => a - b);
  const widest = steps[steps.length - 1];
  if (widest === undefined) return [];
  const today = dayOfInstant(context.now, context.zone ?? systemZone);
  const due: RenewalNotice[] = [];
  for (const renewal of forecast.renewals) {
    if (!uncovered(renewal)) continue;
    const daysAway = (parseDayText(renewal.day) as number) - today;
    if (daysAway > widest) continue;
    const step = steps.find((s) => daysAway <= s) as number;
    const key = noticeKey(context.account, renewal, step);
    if (!context.told.has(key)) due.push({ key, step, daysAway, renewal });
  }
  return due;
}

export function ordersToWarn(forecast: Forecast, warningDays = DEFAULT_WARNING_DAYS): ReadonlySet<string> {
  const flagged = new Set<string>();
  for (const renewal of forecast.renewals) {
    if (renewal.daysAway > warningDays) break;
    if (uncovered(renewal) && renewal.source.kind === 'order') flagged.add(renewal.source.orderId);
  }
  return flagged;
}

export function keepTold(told: Iterable<string>, today: string, keepDays = KEEP_TOLD_DAYS): string[] {
  const from = (parseDayText(today) ?? 0) - keepDays;
  const kept: string[] = [];
  for (const key of told) {
    const parts = key.split('/');
    const day = parts.length >= 4 ? parseDayText((parts[parts.length - 2] as string).slice(0, 10)) : undefined;
    if (day !== undefined && day >= from) kept.push(key);
  }
  return kept;
}
