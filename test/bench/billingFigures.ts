/**
 * Billing foresight, measured in plain Node: the forecast of 1,000 and of 10,000 orders read from the mock (monthly
 * renewals over 90 days, with their unpaid invoices), as the UI would compute it after each refresh.
 */
import { performance } from 'node:perf_hooks';
import { normaliseBalance } from '../../src/api/normalise/balance';
import { normaliseInvoiceList } from '../../src/api/normalise/invoice';
import { normaliseOrderList } from '../../src/api/normalise/order';
import { forecast } from '../../src/billing/forecast';
import { ordersToWarn } from '../../src/billing/notices';
import { fixedZone } from '../../src/util/calendar';
import { DEMO_API_KEY, startMockApi } from '../mock-api/server';
import { type Figure } from './figures';
import { round, summarize } from './stats';

function time(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

/** Budgets: a frame for the thousand servers an account may have; bounded for ten times as many. */
const BUDGETS: ReadonlyArray<[count: number, ms: number]> = [
  [1_000, 16],
  [10_000, 100],
];

async function forecastFigure(count: number, budgetMs: number, samples: number): Promise<Figure> {
  const now = Date.now();
  const mock = await startMockApi({ rateLimit: false, now: () => now });
  try {
    mock.state.addOrders(count - mock.state.orders.length);
    const get = async (path: string): Promise<unknown> =>
      (await fetch(`${mock.url}${path}`, { headers: { authorization: `Bearer ${DEMO_API_KEY}` } })).json();
    const orders = normaliseOrderList(await get('/api/v1/orders')).orders;
    const balance = normaliseBalance(await get('/api/v1/balance'));
    const invoices = normaliseInvoiceList(await get('/api/v1/invoices'), now).invoices;
    const zone = fixedZone(0);
    const run = (): unknown => ordersToWarn(forecast(balance, orders, invoices, now, { zone }));
    // Steady state, as a forecast recomputed on every refresh is: the first runs measure the compiler, and the
    // setup's garbage is collected before, not during, the samples.
    for (let i = 0; i < 10; i++) run();
    (globalThis as { gc?: () => void }).gc?.();
    const spread = summarize(Array.from({ length: samples }, () => time(run)));
    const result = forecast(balance, orders, invoices, now, { zone });
    return {
      id: `forecast${count / 1000}k`,
      label: `forecast of ${count.toLocaleString('en')} orders`,
      value: `${round(spread.median)} ms`,
      budget: `≤ ${budgetMs} ms`,
      met: spread.median <= budgetMs && orders.length === count,
      detail: `p10–p90 ${round(spread.p10)}–${round(spread.p90)} ms; ${result.renewals.length} renewals to ${result.horizonEnd} (90 days) with the running balance, coverage and the orders to warn`,
    };
  } finally {
    await mock.close();
  }
}

export async function forecastFigures(samples = 25): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const [count, ms] of BUDGETS) figures.push(await forecastFigure(count, ms, samples));
  return figures;
}
