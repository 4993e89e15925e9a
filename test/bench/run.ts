/**
 * `npm run bench`: measures the extension as a user feels it and prints a table against the budgets; writes
 * test/bench/results/latest.json. Benchmarks report, they do not assert: a missed budget shows as "no" in the table.
 * `--write` also writes the table into CONTRIBUTING.md between its bench markers.
 * `--only <words>` measures only the steps whose name contains the words (e.g. `--only "hostile answers"`) and prints
 * their figures, without writing latest.json or CONTRIBUTING.md: a partial table must not replace the full one.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { guardRun, stopAll } from '../rig/lifetime';
import { projectRoot } from '../rig/paths';
import { type Figure } from './figures';
import {
  activationFigures,
  floodFigures,
  idlePerAccountFigures,
  idleRateFigures,
  readingFigures,
  shapeFigures,
  sizeFigures,
  thousandsFigures,
} from './nodeFigures';
import { hostActivationFigures } from './hostActivation';
import { countFigures, hostileFigures } from './hostileFigures';
import { droppingProxyFigures, floodFiguresOneKey } from './netFigures';
import { uiFigures } from './uiFigures';
import { bulkStopFigures, filterFigures, watchRateFigures } from './watchFigures';
import { forecastFigures } from './billingFigures';
import { folderItemFigures } from './folderItemFigures';
import { historyFigures } from './historyFigures';

async function main(): Promise<void> {
  guardRun({ what: 'the benchmarks', timeoutMs: 20 * 60_000, exitOnUncaught: true });
  const figures: Figure[] = [];
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
  if (onlyAt >= 0 && !only) throw new Error('--only needs the words of a step name, e.g. --only "hostile answers"');
  const step = async (name: string, measure: () => Figure[] | Promise<Figure[]>): Promise<void> => {
    if (only !== undefined && !name.includes(only)) return;
    process.stdout.write(`measuring ${name}…\n`);
    figures.push(...(await measure()));
  };
  await step('bundle sizes', sizeFigures);
  await step('activation', () => activationFigures());
  await step('activation in the extension host', () => hostActivationFigures());
  await step('background request rates', () => idleRateFigures());
  await step('background request rates, two accounts', () => idlePerAccountFigures());
  await step("background request rates, the folder's server item", () => folderItemFigures());
  await step('reading 1,000 and 10,000 orders', () => readingFigures());
  await step('10,000 orders', () => thousandsFigures());
  await step('10,000 orders in other shapes', () => shapeFigures());
  await step('forecast of 1,000 and 10,000 orders', () => forecastFigures());
  await step('the history of a server', () => historyFigures());
  await step('a flood of actions', floodFigures);
  await step('hostile answers', hostileFigures);
  await step('hostile answers by count', countFigures);
  await step('CPU while a proxy drops every connection', () => droppingProxyFigures());
  await step('windows flooding one key', () => floodFiguresOneKey());
  await step('the outside-change watch', () => watchRateFigures());
  await step('filtering 10,000 orders', () => filterFigures());
  await step('a bulk stop', () => bulkStopFigures());
  await step('the UI in VS Code', () => uiFigures());

  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`;
  const date = new Date().toISOString().slice(0, 10);
  const table = [
    `Measured ${date} on ${machine}.`,
    '',
    '| figure | measured | budget | met |',
    '|---|---|---|---|',
    ...figures.map((f) => `| ${f.label} | ${f.value} | ${f.budget} | ${f.met ? 'yes' : '**no**'} |`),
  ].join('\n');
  const details = figures
    .filter((f) => f.detail)
    .map((f) => `- ${f.label}: ${f.detail}`)
    .join('\n');
  console.log(`\n${table}\n\n${details}\n`);
  if (only !== undefined) {
    if (figures.length === 0) throw new Error(`no bench step's name contains "${only}"`);
    await stopAll();
    return;
  }

  const dir = path.join(projectRoot, 'test', 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify({ date, machine, figures }, null, 2)}\n`);
  console.log(`written: ${path.relative(projectRoot, path.join(dir, 'latest.json'))}`);
  if (process.argv.includes('--write')) {
    const page = path.join(projectRoot, 'CONTRIBUTING.md');
    const text = fs.readFileSync(page, 'utf8');
    const updated = text.replace(
      /(<!-- bench:start -->\n)[\s\S]*?(<!-- bench:end -->)/,
      `$1${table}\n\n${details}\n$2`,
    );
    if (updated === text) throw new Error('CONTRIBUTING.md has no <!-- bench:start --> … <!-- bench:end --> section');
    fs.writeFileSync(page, updated);
    console.log('CONTRIBUTING.md updated');
  }
  await stopAll();
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    await stopAll();
    process.exit(1);
  },
);
