/**
 * How long a hostile or huge answer can hold the event loop (the extension host's, shared with every extension):
 * each body of the hostile corpus, and a valid 10 MB list, read by the API client over loopback HTTP.
 */
import { ApiClient } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { HOSTILE_NAMES, hostileAnswer, type HostileName, serveHostile } from '../mock-api/hostile';
import { JSON_HEADERS } from '../mock-api/hostileBodies';
import { tinyOrderList, wideOrderList } from '../mock-api/hugeBodies';
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

/** A valid order list just under the client's 10 MiB cap, cut from the corpus's 10 MiB one. */
function listUnderCap(): string {
  const body = hostileAnswer('orderList10MB').body as string;
  const parsed = JSON.parse(body) as { data: unknown[] };
  const cap = 10 * 1024 * 1024 - 4096;
  const ratio = cap / Buffer.byteLength(body);
  parsed.data = parsed.data.slice(0, Math.floor(parsed.data.length * ratio));
  return JSON.stringify(parsed);
}

let underCap: string | undefined;

async function readOnce(name: HostileName): Promise<{ ms: number; bytes: number }> {
  const mock = await startMockApi({ rateLimit: false, quiet: true });
  try {
    const entry = hostileAnswer(name);
    if (name === 'orderList10MB') {
      underCap ??= listUnderCap();
      mock.faults.add({ kind: 'raw', path: entry.path, status: 200, headers: entry.headers, body: underCap });
      entry.body = underCap;
    } else {
      serveHostile(mock, name);
    }
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
      const listing = await api.listOrders();
      const first = listing.items[0];
      read =
        `${listing.items.length.toLocaleString('en')} orders read` +
        (listing.stoppedBy ? ` (stopped by ${listing.stoppedBy}, total ${listing.total?.toLocaleString('en')})` : '') +
        (first?.omittedFields ? `, ${first.omittedFields.toLocaleString('en')} fields of the first left out` : '');
    });
    const totalMs = performance.now() - started;
    await api.dispose();
    return { ms, totalMs, read };
  } finally {
    await mock.close();
  }
}

/** The best of three of `body`, as a figure against a 50 ms budget. */
async function bodyFigure(id: string, label: string, body: string): Promise<Figure> {
  const runs = [await readBody(body), await readBody(body), await readBody(body)];
  const best = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  return {
    id,
    label,
    value: `${round(best.ms)} ms`,
    budget: '≤ 50 ms',
    met: best.ms <= 50,
    detail: `${round(Buffer.byteLength(body) / 1024 / 1024, 1)} MB; ${best.read}; ${round(best.totalMs, 0)} ms in all`,
    data: runs,
  };
}

/** Bodies whose weight is in their count: a list of tiny orders, one order with a huge number of fields. */
export async function countFigures(): Promise<Figure[]> {
  const tiny = tinyOrderList();
  const wide = wideOrderList();
  const thousands = (n: number): string => `${Math.round(n / 1000).toLocaleString('en')},000`;
  return [
    await bodyFigure(
      'tinyOrdersBlockMs',
      `longest event-loop block reading ${thousands(tiny.count)} tiny orders (10 MB)`,
      tiny.body,
    ),
    await bodyFigure(
      'wideOrderBlockMs',
      `longest event-loop block reading one order with ${thousands(wide.fields)} keys (10 MB)`,
      wide.body,
    ),
  ];
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
  return [
    {
      id: 'hostileBlockMs',
      label: 'longest event-loop block reading a hostile answer (≤ 100 KB each)',
      value: `${round(worstSmall.ms)} ms`,
      budget: '≤ 20 ms',
      met: worstSmall.ms <= 20,
      detail:
        `${small.length} answers of the hostile corpus; worst: ${worstSmall.name}; ` +
        small.map((r) => `${r.name} ${round(r.ms)}`).join(', '),
      data: Object.fromEntries(rows.map((r) => [r.name, r.ms])),
    },
    {
      id: 'bigListBlockMs',
      label: 'longest event-loop block reading a valid 10 MB order list',
      value: `${round(big?.ms ?? Number.NaN)} ms`,
      budget: '≤ 50 ms',
      met: (big?.ms ?? Infinity) <= 50,
      detail:
        `${round((big?.bytes ?? 0) / 1024 / 1024, 1)} MB; an endless chain of 1.25 MB pages (stopped at the 10 MB cap): ` +
        `${round(endless?.ms ?? Number.NaN)} ms`,
    },
  ];
}
