/**
 * The history, measured in plain Node on a real file: 10,000 events appended one call at a time as the store reports
 * them (what the caller waits for, and when all are on disk), and a history of 500 events opened (read, parsed and
 * made into its lines) as Show History does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cacheDir } from '../rig/paths';
import { performance } from 'node:perf_hooks';
import type * as HistoryModule from '../../src/accounts/History';
import type * as DocumentModule from '../../src/views/HistoryDocument';
import { serverText } from '../../src/util/serverText';
import { type Figure } from './figures';
import { round, summarize } from './stats';
import { installStandIn } from './vscodeStandIn';

export async function historyFigures(count = 10_000, samples = 25): Promise<Figure[]> {
  installStandIn();
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { History, MAX_EVENTS } = require('../../src/accounts/History') as typeof HistoryModule;
  const { historyLines } = require('../../src/views/HistoryDocument') as typeof DocumentModule;
  /* eslint-enable @typescript-eslint/no-require-imports */
  // Not os.tmpdir(): an earlier step's browser session points this process's temp folder at its own, removed since.
  const base = path.join(cacheDir, 'bench');
  fs.mkdirSync(base, { recursive: true });
  const dir = fs.mkdtempSync(path.join(base, 'history-'));
  try {
    const file = path.join(dir, 'history', 'bench.jsonl');
    const failures: unknown[] = [];
    const history = new History(file, Date.now, (error) => failures.push(error));
    const event = (i: number): HistoryModule.HistoryEvent => ({
      at: Date.now(),
      id: String(1000 + (i % 50)),
      kind: i % 3 ? 'settled' : 'stopped',
      name: serverText(`web-frontend-${i % 50}`),
      action: 'stop',
      source: 'menu',
      ms: 12_000,
      from: 'running',
      to: 'stopped',
      since: Date.now() - 60_000,
    });
    let inCaller = 0;
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const before = performance.now();
      history.append([event(i)]);
      inCaller += performance.now() - before;
    }
    const kept = await history.read();
    const written = performance.now() - started;
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    const open = async (): Promise<number> => {
      const before = performance.now();
      historyLines(await new History(file, Date.now, (error) => failures.push(error)).read(), Date.now());
      return performance.now() - before;
    };
    for (let i = 0; i < 5; i++) await open();
    const times: number[] = [];
    for (let i = 0; i < samples; i++) times.push(await open());
    const spread = summarize(times);
    // Its two rooms full: the actions (settled) and the changes seen (stopped).
    const ok = failures.length === 0 && kept.length === 2 * MAX_EVENTS;
    return [
      {
        id: 'historyAppendCaller',
        label: `history: appending ${count.toLocaleString('en')} events, time in the callers`,
        value: `${round(inCaller)} ms`,
        budget: '≤ 50 ms (≤ 5 µs an event)',
        met: ok && inCaller <= 50,
        detail: `${round((inCaller * 1000) / count)} µs an event; the writes follow in the background`,
      },
      {
        id: 'historyAppendDisk',
        label: `history: ${count.toLocaleString('en')} events on disk`,
        value: `${round(written)} ms`,
        budget: '≤ 2,000 ms',
        met: ok && written <= 2_000,
        detail: `compacted as it went: ${lines} lines in the file at the end, ${kept.length} kept`,
      },
      {
        id: 'historyOpen500',
        label: `history: opening a history of ${2 * MAX_EVENTS} events (read, check, lines)`,
        value: `${round(spread.median)} ms`,
        budget: '≤ 50 ms',
        met: ok && spread.median <= 50,
        detail: `p10–p90 ${round(spread.p10)}–${round(spread.p90)} ms over ${samples} samples`,
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
