// Server text reaches a sentence only through `quote`: the sink function of where the sentence goes.
import * as vscode from 'vscode';
import { type AmountProblem, type Order, type OrderRenewal, type RenewalCycle } from '../api/models';
import { formatDay, formatUnits } from '../billing/display';
import { type Forecast, type ForecastRenewal, type OrderOutlook, type Units } from '../billing/types';
import { dayOfInstant, dayText, systemZone } from '../util/calendar';
import { forMarkdown } from './inert';
import { type ServerText } from '../util/serverText';

export type Quote = (serverText: ServerText | string, max?: number) => string;

export function dayWords(day: string, today: string): string {
  return formatDay(day, today, vscode.env.language);
}

export function moneyWords(units: Units, currency: string | undefined): string {
  return formatUnits(units, currency, vscode.env.language);
}

export function warningDays(settings: { readonly renewalWarningDays: number }): number {
  return settings.renewalWarningDays > 0 ? settings.renewalWarningDays : 0;
}

export function balanceRunsShort(forecast: Forecast, days: number): boolean {
  return days > 0 && forecast.runsOut !== undefined && forecast.runsOut.daysAway <= days;
}

function everyWords(money: string, { unit, count }: Extract<RenewalCycle, { kind: 'every' }>): string {
  if (count === 1) {
    return {
      hour: vscode.l10n.t('{0} / hour', money),
      day: vscode.l10n.t('{0} / day', money),
      week: vscode.l10n.t('{0} / week', money),
      month: vscode.l10n.t('{0} / month', money),
      year: vscode.l10n.t('{0} / year', money),
    }[unit];
  }
  return {
    hour: vscode.l10n.t('{0} / {1} hours', money, count),
    day: vscode.l10n.t('{0} / {1} days', money, count),
    week: vscode.l10n.t('{0} / {1} weeks', money, count),
    month: vscode.l10n.t('{0} / {1} months', money, count),
    year: vscode.l10n.t('{0} / {1} years', money, count),
  }[unit];
}

export function amountProblemWords(problem: AmountProblem): string {
  return {
    notAmount: vscode.l10n.t('not an amount'),
    ambiguous: vscode.l10n.t('its separators could mean thousands or decimals'),
    tooLarge: vscode.l10n.t('too large'),
    negative: vscode.l10n.t('negative'),
  }[problem];
}

/** "€12.90 / month", "€132.00 / 3 months"; the server's own cycle word when it is not one we read. */
function priceWords(renewal: OrderRenewal, quote: Quote): string | undefined {
  if (renewal.price === undefined) {
    return renewal.priceProblem && vscode.l10n.t('price unreadable: {0}', amountProblemWords(renewal.priceProblem));
  }
  const money = moneyWords(renewal.price, renewal.currency);
  const { cycle } = renewal;
  if (cycle?.kind === 'every') return everyWords(money, cycle);
  if (cycle?.kind === 'once') return vscode.l10n.t('{0}, paid once', money);
  if (cycle?.kind === 'free') return vscode.l10n.t('free');
  // Only the next renewal is forecast then: the user is told why no later one is.
  return renewal.cycleText ? vscode.l10n.t('{0} · cycle unknown ({1})', money, quote(renewal.cycleText, 40)) : money;
}

function join(...parts: Array<string | undefined>): string {
  return parts.filter((part) => part !== undefined && part !== '').join(' · ');
}

/** Undefined when the server said nothing about renewing. */
export function renewalSummary(
  order: Order,
  outlook: OrderOutlook | undefined,
  today: string,
  quote: Quote,
): string | undefined {
  const renewal = order.renewal;
  if (!renewal) return undefined;
  const price = priceWords(renewal, quote);
  switch (outlook?.noForecast) {
    case 'ended':
      return vscode.l10n.t('Ended: does not renew');
    case 'oneTime':
      return vscode.l10n.t('Paid once: does not renew');
    case 'free':
      return vscode.l10n.t('Free: nothing to renew');
    case 'dateUnreadable':
      return join(vscode.l10n.t('Renewal date unreadable'), price);
    case 'noDate':
      return join(vscode.l10n.t('No renewal date given'), price);
    case 'stale': {
      const last = lastDueDay(renewal);
      return last
        ? vscode.l10n.t('Last due {0}, long past: not forecast', dayWords(last, today))
        : vscode.l10n.t('Renewal date long past: not forecast');
    }
    case undefined:
      break;
  }
  const next = outlook?.nextDay;
  if (renewal.autoRenew === false) {
    return next ? vscode.l10n.t('Ends {0}: does not renew', dayWords(next, today)) : vscode.l10n.t('Does not renew');
  }
  return next ? join(vscode.l10n.t('Renews {0}', dayWords(next, today)), price) : price;
}

function lastDueDay(renewal: OrderRenewal): string | undefined {
  const { date } = renewal;
  if (!date) return undefined;
  return date.kind === 'day' ? date.day : dayText(dayOfInstant(date.at, systemZone));
}

/** `warn`: short within the warning window (the row is marked). */
export interface RenewalCoverage {
  readonly text: string;
  readonly kind: 'short' | 'covered' | 'notCounted';
  readonly warn: boolean;
}

export function renewalCoverage(outlook: OrderOutlook | undefined, today: string): RenewalCoverage | undefined {
  const next = outlook?.next;
  if (!outlook || !next) return undefined;
  const short = outlook.firstUncovered;
  if (short) {
    const by = moneyWords(short.shortBy ?? 0, short.currency);
    const text =
      short === next
        ? vscode.l10n.t('Your balance does not cover it: short by {0}', by)
        : vscode.l10n.t('Your balance does not cover its renewal on {0}: short by {1}', dayWords(short.day, today), by);
    return { text, kind: 'short', warn: outlook.warn };
  }
  if (next.kind === 'charge' && next.covered === true) {
    return { text: vscode.l10n.t('Covered by your balance'), kind: 'covered', warn: false };
  }
  if (next.kind === 'otherCurrency' && next.currency) {
    return {
      text: vscode.l10n.t("Priced in {0}, not the balance's currency: not counted", next.currency),
      kind: 'notCounted',
      warn: false,
    };
  }
  return undefined;
}

export function subjectWords(renewal: ForecastRenewal, quote: Quote): string {
  const { source } = renewal;
  return source.kind === 'order'
    ? quote(source.label, 80)
    : vscode.l10n.t('invoice {0}', quote(source.number ?? `#${source.invoiceId}`, 60));
}

export function coverageSentence(forecast: Forecast, quote: Quote): string | undefined {
  const { coverage, today } = forecast;
  if (forecast.balance === undefined) return undefined;
  const balance = moneyWords(forecast.balance, forecast.currency);
  switch (coverage.kind) {
    case 'noBalance':
      return undefined;
    case 'nothingDue':
      return vscode.l10n.t('No renewals to pay until {0}', dayWords(forecast.horizonEnd, today));
    case 'covered': {
      const until = dayWords(forecast.horizonEnd, today);
      const sum = moneyWords(coverage.amount, forecast.currency);
      return coverage.count === 1
        ? vscode.l10n.t('{0} covers the renewals until {1} (1 renewal, {2})', balance, until, sum)
        : vscode.l10n.t('{0} covers the renewals until {1} ({2} renewals, {3})', balance, until, coverage.count, sum);
    }
    case 'short': {
      const { first } = coverage;
      const amount = moneyWords(first.amount ?? 0, first.currency);
      const short = moneyWords(coverage.shortBy, forecast.currency);
      const words = [balance, subjectWords(first, quote), dayWords(first.day, today), amount, short];
      return first.source.kind === 'order'
        ? vscode.l10n.t("{0} does not cover {1}'s renewal on {2} ({3}): short by {4}", ...words)
        : vscode.l10n.t('{0} does not cover {1}, due {2} ({3}): short by {4}', ...words);
    }
  }
}

export function forecastCaveats(forecast: Forecast): string[] {
  const caveats: string[] = [];
  const { otherCurrencies, notSummed } = forecast.totals;
  if (otherCurrencies.length) {
    caveats.push(vscode.l10n.t('Not counted: renewals priced in {0}', otherCurrencies.slice(0, 5).join(', ')));
  } else if (notSummed) {
    caveats.push(
      notSummed === 1
        ? vscode.l10n.t('Not counted: 1 renewal whose price could not be read')
        : vscode.l10n.t('Not counted: {0} renewals whose price could not be read', notSummed),
    );
  }
  if (forecast.cut) {
    caveats.push(
      vscode.l10n.t(
        'Listed until {0} only: too many renewals to list further',
        dayWords(forecast.horizonEnd, forecast.today),
      ),
    );
  }
  return caveats;
}

const COVERAGE_ICONS = { short: '$(warning)', covered: '$(pass)', notCounted: '$(info)' } as const;

/** The one wording for every tooltip that speaks of a server (its row, this folder's status bar item). */
export function renewalTooltipLines(forecast: Forecast, order: Order): string[] {
  const outlook = forecast.orders.get(order.id);
  const summary = renewalSummary(order, outlook, forecast.today, forMarkdown);
  if (summary === undefined) return [];
  const coverage = renewalCoverage(outlook, forecast.today);
  const lines = [`$(calendar) ${summary}`];
  // The mark of a shortfall whether or not it falls within the warning window; a tick only for what is paid.
  if (coverage) lines.push(`${COVERAGE_ICONS[coverage.kind]} ${coverage.text}`);
  return lines;
}
