/** Mocha global fixtures for the e2e run (loaded with `--require`, see test/e2e/.mocharc.json). */
import * as fs from 'node:fs';
import { guardRun, stopAll } from '../rig/lifetime';
import { artifactsDir, screenshotsDir } from './workbench';

let disposeGuard: (() => void) | undefined;

export function mochaGlobalSetup(): void {
  for (const dir of [screenshotsDir, artifactsDir]) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  }
  // Signals and a hung run stop every server and browser; mocha reports uncaught errors itself.
  disposeGuard = guardRun({ what: 'the e2e tests', timeoutMs: Number(process.env.RIG_RUN_TIMEOUT_MS ?? 20 * 60_000) });
}

export async function mochaGlobalTeardown(): Promise<void> {
  await stopAll();
  disposeGuard?.();
}
