/**
 * The network's worst days: the CPU a client spends while a proxy drops every connection (real time, the store and
 * its schedule as the extension runs them), and two windows flooding one key of a 120/min server (simulated clock,
 * the whole pipeline against the mock, with and without rate-limit headers).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { ApiClient } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { Scheduler } from '../../src/store/Scheduler';
import { Store } from '../../src/store/Store';
import { DEMO_API_KEY, startMockApi } from '../mock-api/server';
import { FakeClock } from '../unit/helpers/FakeClock';
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

/**
 * Two windows (two clients, two limiter registries) each asking for 120 reads a minute of one key, for `minutes` of
 * simulated time, against the mock's 120 per rolling minute: the 429s after the first minute, and what was served.
 */
export async function twoWindowFigures(minutes = 11): Promise<Figure[]> {
  const figures: Figure[] = [];
  const results: string[] = [];
  let worst = { refused: 0, perMinute: Number.POSITIVE_INFINITY };
  for (const headers of [true, false]) {
    const clock = new FakeClock(Date.now());
    const mock = await startMockApi({
      now: () => clock.now(),
      rateLimit: { limit: 120, windowMs: 60_000 },
      rateLimitHeaders: headers,
    });
    const registries = [new LimiterRegistry(61_000, clock), new LimiterRegistry(61_000, clock)];
    const clients = registries.map(
      (limiters) =>
        new ApiClient({
          baseUrl: mock.url,
          getKey: () => DEMO_API_KEY,
          userAgent: 'bench-two-windows',
          requestsPerMinute: 120,
          limiters,
          clock,
        }),
    );
    try {
      const start = clock.now();
      const calls: Array<Promise<unknown>> = [];
      for (let step = 0; step < minutes * 120; step++) {
        // Distinct ids, so coalescing cannot hide the load (unknown orders answer 404 and still count).
        clients.forEach((client, i) => calls.push(client.getOrder(`w${i}-${step}`).catch(() => undefined)));
        await clock.advance(500);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const after = mock.requests.filter((r) => r.rawPath.startsWith('/api/') && r.time >= start + 60_000);
      const refused = after.filter((r) => r.status === 429).length;
      const perMinute = after.filter((r) => r.status !== 429).length / (minutes - 1);
      if (refused > worst.refused || perMinute < worst.perMinute) {
        worst = { refused: Math.max(worst.refused, refused), perMinute: Math.min(worst.perMinute, perMinute) };
      }
      results.push(`${headers ? 'with' : 'without'} rate-limit headers: ${refused} × 429, ${round(perMinute, 1)}/min`);
    } finally {
      for (const client of clients) await client.dispose();
      for (const registry of registries) registry.dispose();
      await mock.close();
    }
  }
  figures.push({
    id: 'twoWindows429',
    label: 'two windows flooding one key: 429s after the first minute, requests served per minute',
    value: `${worst.refused} × 429, ${round(worst.perMinute, 1)}/min`,
    budget: `≤ 5 × 429 in ${minutes - 1} min, ≥ 100/min`,
    met: worst.refused <= 5 && worst.perMinute >= 100,
    detail: `each window asks for 120 reads a minute of a 120/min server, ${minutes} simulated minutes; ${results.join('; ')}`,
  });
  return figures;
}
