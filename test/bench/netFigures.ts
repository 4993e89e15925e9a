/**
 * The network's worst days: the CPU a client spends while a proxy drops every connection (real time, the store and
 * its schedule as the extension runs them), and several windows flooding one key of a 120/min server (simulated clock,
 * the whole pipeline against the mock, with and without rate-limit headers).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { ApiClient } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { Scheduler } from '../../src/store/Scheduler';
import { Store } from '../../src/store/Store';
import { DEMO_API_KEY } from '../mock-api/server';
import { floodOneKey } from '../unit/helpers/floodOneKey';
import { type Figure } from './figures';
import { round } from './stats';

/** A proxy in a process of its own (so its work is not counted as ours) that closes every connection on CONNECT. */
const DROPPING_PROXY = `
const net = require('node:net');
let connections = 0;
const server = net.createServer((socket) => {
  connections++;
  socket.on('error', () => undefined);
  socket.once('data', () => socket.destroy());
});
server.listen(0, '127.0.0.1', () => process.stdout.write('PORT ' + server.address().port + '\\n'));
process.stdin.on('data', () => process.stdout.write('CONNECTIONS ' + connections + '\\n'));
process.stdin.on('end', () => process.exit(0));
`;

async function readLine(child: ChildProcessWithoutNullStreams, prefix: string): Promise<string> {
  let buffered = '';
  for (;;) {
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    buffered += chunk.toString('utf8');
    const line = buffered.split('\n').find((l) => l.startsWith(prefix));
    if (line) return line.slice(prefix.length).trim();
  }
}

/**
 * One account whose proxy drops every connection, for `seconds` of real time: background refreshes at the default
 * interval with the orders view visible and the window focused, and a user Refresh of everything every 15 s.
 */
export async function droppingProxyFigures(seconds = 60): Promise<Figure[]> {
  const proxy = spawn(process.execPath, ['-e', DROPPING_PROXY]);
  const port = await readLine(proxy, 'PORT ');
  const limiters = new LimiterRegistry();
  const store = new Store({
    createClient: (options) =>
      new ApiClient({ ...options, userAgent: 'bench', limiters, network: { proxy: `http://127.0.0.1:${port}` } }),
    getKey: () => Promise.resolve(DEMO_API_KEY),
    settings: () => ({ baseUrl: 'https://api.example.test', requestsPerMinute: 100, requestTimeoutMs: 30_000 }),
  });
  const scheduler = new Scheduler(store, { refreshSeconds: 60, watchMinutes: 5 });
  const userRefreshes: Array<Promise<void>> = [];
  try {
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    await store.keyChanged();
    scheduler.setVisibility({ ordersVisible: true, invoicesVisible: true, focused: true });
    const clicks = setInterval(
      () => userRefreshes.push(store.refresh(['orders', 'balance', 'account', 'invoices'], 'user')),
      15_000,
    );
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    clearInterval(clicks);
    const cpu = process.cpuUsage(cpuBefore);
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    proxy.stdin.write('count\n');
    const connections = Number(await readLine(proxy, 'CONNECTIONS '));
    const share = (cpu.user + cpu.system) / 1000 / wallMs;
    const ended = await Promise.race([
      Promise.all(userRefreshes).then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
    ]);
    return [
      {
        id: 'cpuDroppingProxy',
        label: `CPU while a proxy drops every connection for ${seconds} s`,
        value: `${round(share * 100, 2)} % of one core`,
        budget: '≤ 5 %',
        met: share <= 0.05,
        detail:
          `process CPU ${round((cpu.user + cpu.system) / 1000)} ms over ${round(wallMs / 1000, 1)} s; ` +
          `${connections} connections to the proxy (background refreshes every 60 s, a user Refresh every 15 s); ` +
          `every Refresh ended: ${ended ? 'yes' : 'no'}; last error: ${store.balance.error?.code ?? store.balance.error?.kind ?? 'none'}`,
        data: { cpuMs: (cpu.user + cpu.system) / 1000, wallMs, connections, userRefreshes: userRefreshes.length },
      },
    ];
  } finally {
    scheduler.dispose();
    store.dispose();
    limiters.dispose();
    proxy.stdin.end();
  }
}

interface FloodCase {
  readonly id: string;
  readonly label: string;
  readonly windows: number;
  readonly burst: boolean;
  readonly limit: number;
  /** Every 429 says this `Retry-After`, whatever the mock's window holds (some APIs do). */
  readonly retryAfter?: number;
}

const FLOOD_CASES: readonly FloodCase[] = [
  {
    id: 'twoWindowsBurst429',
    label:
      'two windows on one key, each wanting 120 reads at the start of every minute (limit 100), mock 120/min: 429s in the worst minute, both windows together',
    windows: 2,
    burst: true,
    limit: 100,
  },
  {
    id: 'twoWindowsEven429',
    label:
      'two windows on one key, each wanting 120 reads a minute spread evenly (limit 120), mock 120/min: 429s in the worst minute, both windows together',
    windows: 2,
    burst: false,
    limit: 120,
  },
  {
    id: 'threeWindowsBurst429',
    label:
      'three windows on one key, each wanting 120 reads at the start of every minute (limit 100), mock 120/min: 429s in the worst minute, all windows together',
    windows: 3,
    burst: true,
    limit: 100,
  },
  {
    id: 'twoWindowsRetryAfter5',
    label:
      'two windows on one key, each wanting 120 reads at the start of every minute (limit 100), mock 120/min and every 429 saying Retry-After: 5: 429s in the worst minute',
    windows: 2,
    burst: true,
    limit: 100,
    retryAfter: 5,
  },
  {
    id: 'threeWindowsRetryAfter5',
    label:
      'three windows on one key, each wanting 120 reads a minute spread evenly (limit 120), mock 120/min and every 429 saying Retry-After: 5: 429s in the worst minute',
    windows: 3,
    burst: false,
    limit: 120,
    retryAfter: 5,
  },
];

/** Windows on one key, each its own client and limiter, wanting more than the key allows, for `minutes` simulated. */
export async function floodFiguresOneKey(minutes = 11): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const flood of FLOOD_CASES) {
    let worst = 0;
    let leastServed = Number.POSITIVE_INFINITY;
    const results: string[] = [];
    for (const headers of [true, false]) {
      const { refused, served } = await floodOneKey(flood.windows, { ...flood, minutes, headers });
      worst = Math.max(worst, ...refused);
      const perMinute = served.slice(1).reduce((sum, count) => sum + count, 0) / (minutes - 1);
      leastServed = Math.min(leastServed, perMinute);
      results.push(
        `${headers ? 'with' : 'without'} rate-limit headers: 429s a minute ${refused.join(' ')}, ` +
          `${round(perMinute, 1)} served a minute after the first`,
      );
    }
    figures.push({
      id: flood.id,
      label: flood.label,
      value: `${worst} × 429/min`,
      budget: '≤ 10 × 429/min',
      met: worst <= 10,
      detail: `${minutes} simulated minutes, the whole pipeline against the mock, holds shared through a stand-in for globalState that reaches the other windows a second later; ${results.join('; ')}; least served ${round(leastServed, 1)}/min`,
    });
  }
  return figures;
}
