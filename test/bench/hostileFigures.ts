/**
 * How long a hostile or huge answer can hold the event loop (the extension host's, shared with every extension):
 * each body of the hostile corpus, the longest valid list one answer may hold, and 10 MB bodies built to be costly,
 * read by the API client over loopback HTTP.
 */
import { ApiClient } from '../../src/api/ApiClient';
import { ApiError } from '../../src/api/errors';
import { JSON_BOUNDS } from '../../src/api/json';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { HOSTILE_NAMES, hostileAnswer, type HostileName, serveHostile } from '../mock-api/hostile';
import { JSON_HEADERS } from '../mock-api/hostileBodies';
import {
  bigIntegerLists,
  ownNamesList,
  serverPage,
  tinyOrderList,
  underWorkBound,
  wideOrderList,
} from '../mock-api/hugeBodies';
import { DEMO_API_KEY, startMockApi } from '../mock-api/server';
import { type Figure } from './figures';
import { round } from './stats';

/** The longest stretch, in ms, that `work` kept the event loop from turning: the widest gap between 1 ms ticks. */
export async function longestBlock(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let widest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    widest = Math.max(widest, now - last);
    last = now;
  }, 1);
  await work().catch(() => undefined);
  // One more turn, so a block at the very end is sampled too.
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(ticker);
  return Math.max(0, widest - 1);
}

/** The corpus's valid 10 MB order list cut to as many orders as one answer may hold. */
function longestList(): string {
  const parsed = JSON.parse(hostileAnswer('orderList10MB').body as string) as { data: unknown[]; meta: unknown };
  return JSON.stringify({ data: parsed.data.slice(0, JSON_BOUNDS.entries), meta: { total: JSON_BOUNDS.entries } });
}

async function readOnce(name: HostileName): Promise<{ ms: number; bytes: number }> {
  const mock = await startMockApi({ rateLimit: false, quiet: true });
  try {
    const entry = hostileAnswer(name);
    serveHostile(mock, name);
    const api = new ApiClient({
      baseUrl: mock.url,
      getKey: () => DEMO_API_KEY,
      userAgent: 'bench',
      limiters: new LimiterRegistry(61_000),
      retry: { maxAttempts: 1 },
    });
    const read = entry.path.endsWith('/balance')
      ? () => api.getBalance()
      : entry.path.endsWith('/invoices')
        ? () => api.listInvoices()
        : () => api.listOrders();
    const ms = await longestBlock(read);
    await api.dispose();
    return { ms, bytes: typeof entry.body === 'string' ? Buffer.byteLength(entry.body) : Number.NaN };
  } finally {
    await mock.close();
  }
}

/** One order list body read by the API client over loopback: the longest block, the whole time, what was read. */
async function readBody(body: string): Promise<{ ms: number; totalMs: number; read: string }> {
  const mock = await startMockApi({ rateLimit: false, quiet: true });
  try {
    mock.faults.add({ kind: 'raw', path: '/api/v1/orders', status: 200, headers: JSON_HEADERS, body });
    const api = new ApiClient({
      baseUrl: mock.url,
      getKey: () => DEMO_API_KEY,
      userAgent: 'bench',
      limiters: new LimiterRegistry(61_000),
      retry: { maxAttempts: 1 },
    });
    let read = 'failed';
    const started = performance.now();
    const ms = await longestBlock(async () => {
      try {
        const listing = await api.listOrders();
        read =
          `${listing.items.length.toLocaleString('en')} orders read` +
          (listing.stoppedBy ? ` (stopped by ${listing.stoppedBy}, total ${listing.total?.toLocaleString('en')})` : '');
      } catch (error) {
        const bound = error instanceof ApiError && error.reason?.rule === 'tooComplex' ? error.reason.bound : undefined;
        read = bound ? `refused (${bound})` : `failed: ${String(error)}`;
      }
    });
    const totalMs = performance.now() - started;
    await api.dispose();
    return { ms, totalMs, read };
  } finally {
    await mock.close();
  }
}

/** A 10 MB answer may hold the event loop this long, once per read. */
const BIG_BUDGET_MS = 150;

/** The best of three of `body`, as a figure against the budget for a 10 MB answer. */
async function bodyFigure(id: string, label: string, body: string): Promise<Figure> {
  const runs = [await readBody(body), await readBody(body), await readBody(body)];
  const best = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  return {
    id,
    label,
    value: `${round(best.ms)} ms`,
    budget: `≤ ${BIG_BUDGET_MS} ms`,
    met: best.ms <= BIG_BUDGET_MS,
    detail: `${round(Buffer.byteLength(body) / 1024 / 1024, 1)} MB; ${best.read}; ${round(best.totalMs, 0)} ms in all`,
    data: runs,
  };
}

/** Bodies whose weight is in their count or their cost to JSON.parse, not their depth. */
export async function countFigures(): Promise<Figure[]> {
  const tiny = tinyOrderList();
  const wide = wideOrderList();
  const thousands = (n: number): string => `${Math.round(n / 1000).toLocaleString('en')},000`;
  const figures = [
    await bodyFigure(
      'tinyOrdersBlockMs',
      `longest event-loop block: ${thousands(tiny.count)} tiny orders (10 MB)`,
      tiny.body,
    ),
    await bodyFigure(
      'wideOrderBlockMs',
      `longest event-loop block: one order with ${thousands(wide.fields)} keys (10 MB)`,
      wide.body,
    ),
    await bodyFigure('bigIntegersBlockMs', '10 MB of big integers: one read', bigIntegerLists()),
    await bodyFigure('serverPageBlockMs', 'a page of 1,000 servers with 150 fields: read', serverPage(1_000)),
    await bodyFigure(
      'ownNamesBlockMs',
      'longest event-loop block: objects of 100 keys, each with names of its own (10 MB)',
      ownNamesList(),
    ),
  ];
  const words: Record<string, string> = {
    containers: 'empty objects',
    values: 'short strings',
    wideMembers: 'objects of 500 keys',
    nameOrders: 'objects with a key of their own',
    all: 'all four kinds',
  };
  for (const [kind, body] of Object.entries(underWorkBound())) {
    figures.push(
      await bodyFigure(
        `underWorkBound_${kind}BlockMs`,
        `longest event-loop block: ${words[kind] ?? kind} just under the work bound (10 MB)`,
        body,
      ),
    );
  }
  return figures;
}

export async function hostileFigures(): Promise<Figure[]> {
  const rows: Array<{ name: HostileName; ms: number; bytes: number }> = [];
  for (const name of HOSTILE_NAMES) {
    // The best of three: a figure for the code, not for the garbage collector's timing.
    const runs = [await readOnce(name), await readOnce(name), await readOnce(name)];
    rows.push({ name, ms: Math.min(...runs.map((r) => r.ms)), bytes: runs[0]?.bytes ?? Number.NaN });
  }
  const small = rows.filter((r) => r.name !== 'orderList10MB' && r.name !== 'endlessPages');
  const worstSmall = small.reduce((a, b) => (b.ms > a.ms ? b : a));
  const big = rows.find((r) => r.name === 'orderList10MB');
  const endless = rows.find((r) => r.name === 'endlessPages');
  const longest = await bodyFigure(
    'bigListBlockMs',
    `longest event-loop block: a valid list of ${JSON_BOUNDS.entries.toLocaleString('en')} orders, the most one answer may hold`,
    longestList(),
  );
  return [
    {
      id: 'hostileBlockMs',
      label: 'longest event-loop block: a hostile answer of the corpus (≤ 100 KB each)',
      value: `${round(worstSmall.ms)} ms`,
      budget: '≤ 20 ms',
      met: worstSmall.ms <= 20,
      detail:
        `${small.length} answers of the hostile corpus; worst: ${worstSmall.name}; ` +
        small.map((r) => `${r.name} ${round(r.ms)}`).join(', '),
      data: Object.fromEntries(rows.map((r) => [r.name, r.ms])),
    },
    {
      ...longest,
      detail:
        `${longest.detail}; a valid 10 MB list of 37,000 orders, refused (over ${JSON_BOUNDS.entries.toLocaleString('en')} entries): ` +
        `${round(big?.ms ?? Number.NaN)} ms; an endless chain of 1.25 MB pages (stopped at the 10 MB cap): ` +
        `${round(endless?.ms ?? Number.NaN)} ms`,
    },
  ];
}
