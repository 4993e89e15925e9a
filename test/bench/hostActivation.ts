/**
 * Activation as the real extension host times it: VS Code's own figures from **Developer: Startup Performance**
 * ("Extension Activation Stats": load code, call activate, finish activate, in ms; Show Running Extensions shows load +
 * call as "Activation: N ms", but its list stays empty in code-server), for our packaged extension and for an empty
 * extension with the same activation event, installed side by side in one code-server. Each sample restarts the
 * extension host (**Developer: Restart Extension Host**), which activates both again.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Page } from 'playwright-core';
import { startSession, stopSession } from '../e2e/session';
import { timeouts, type Workbench } from '../e2e/workbench';
import { cacheDir } from '../rig/paths';
import { type Figure } from './figures';
import { round, summarize } from './stats';

const OURS = 'hosting-tools.hosting-account';
const EMPTY = 'bench-tools.empty-extension';

/** Packs an extension that does nothing, activated like ours (onStartupFinished), with the same vsce. */
function emptyExtensionVsix(): string {
  const dir = path.join(cacheDir, 'bench', 'empty-extension');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name: 'empty-extension', publisher: 'bench-tools', displayName: 'Empty extension', description: 'Activates and does nothing.',
    version: '0.0.1', license: 'MIT', engines: { vscode: '^1.96.0' }, main: './extension.js', activationEvents: ['onStartupFinished'],
  }, null, 2));
  fs.writeFileSync(path.join(dir, 'extension.js'), "'use strict';\nexports.activate = function activate() {};\nexports.deactivate = function deactivate() {};\n");
  fs.writeFileSync(path.join(dir, 'README.md'), '# Empty extension\n\nThe baseline of the activation benchmark.\n');
  const vsix = path.join(cacheDir, 'bench', 'empty-extension.vsix');
  const vsce = path.join(path.dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix],
    { cwd: dir, stdio: 'ignore' });
  return vsix;
}

interface HostTimes { load: number; call: number; finish: number }

/** One extension's row of the "Extension Activation Stats" table: | id | eager | load | call | finish | event | by |. */
async function activationRow(page: Page, id: string): Promise<HostTimes> {
  await page.keyboard.press('Control+f');
  await page.keyboard.type(id);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  const line = page.locator('.view-line', { hasText: id }).first();
  await line.waitFor({ timeout: timeouts.ui });
  const cells = (await line.innerText()).split('|').map((cell) => cell.trim());
  const [load, call, finish] = cells.slice(3, 6).map(Number);
  if (cells[1] !== id || load === undefined || call === undefined || finish === undefined || [load, call, finish].some(Number.isNaN)) {
    throw new Error(`unexpected activation row: ${cells.join(' | ')}`);
  }
  return { load, call, finish };
}

async function sample(workbench: Workbench): Promise<{ ours: HostTimes; empty: HostTimes }> {
  await workbench.runCommand('Developer: Startup Performance');
  await workbench.page.locator('.view-line', { hasText: 'Extension Activation Stats' }).first().waitFor({ timeout: timeouts.workbench });
  const times = { ours: await activationRow(workbench.page, OURS), empty: await activationRow(workbench.page, EMPTY) };
  await workbench.runCommand('View: Close All Editors');
  return times;
}

export async function hostActivationFigures(samples = 7): Promise<Figure[]> {
  const session = await startSession({ otherExtensions: [emptyExtensionVsix()] });
  try {
    const { workbench, page } = session;
    const runs: Array<{ ours: HostTimes; empty: HostTimes }> = [];
    for (let i = 0; i < samples; i++) {
      if (i > 0) {
        await workbench.runCommand('Developer: Restart Extension Host');
        // onStartupFinished fires again once the new host is up; both extensions activate then.
        await page.waitForTimeout(5_000);
      }
      runs.push(await sample(workbench));
    }
    const total = (t: HostTimes): number => t.load + t.call;
    const ours = summarize(runs.map((r) => total(r.ours)));
    const empty = summarize(runs.map((r) => total(r.empty)));
    const oursCall = summarize(runs.map((r) => r.ours.call));
    return [{
      id: 'hostActivateMs',
      label: 'activation in the extension host, median (VS Code\'s own figure: load code + call `activate()`)',
      value: `${round(ours.median)} ms`,
      budget: '≤ 20 ms',
      met: ours.median <= 20,
      detail: `p10–p90 ${round(ours.p10)}–${round(ours.p90)} ms over ${ours.n} extension-host starts in code-server `
        + `(\`activate()\` alone ${round(oursCall.median)} ms); an empty extension in the same host: ${round(empty.median)} ms `
        + `(p10–p90 ${round(empty.p10)}–${round(empty.p90)} ms); VS Code counts whole milliseconds`,
      data: runs,
    }];
  } finally {
    await stopSession(session);
  }
}
