/**
 * The mocha entry point run inside the extension host (`extensionTestsPath`): it loads every compiled
 * `*.test.js` under this folder (but pseudoLocale/, which has a run of its own) and rejects when a test fails or a promise rejection goes unhandled.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { closeSuiteMock } from './harness';

export async function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    color: process.env.HOSTING_ACCOUNT_TEST_COLOR === '1',
    timeout: 20_000,
    grep: process.env.HOSTING_ACCOUNT_TEST_GREP || undefined,
  });
  // The pseudo-locale suite runs alone, in its own run with that display language (`npm run test:pseudo-locale`).
  const pseudoRun = (process.env.HOSTING_ACCOUNT_TEST_LOCALE ?? '') !== '';
  const files = findTests(__dirname).filter(
    (file) => file.includes(`${path.sep}pseudoLocale${path.sep}`) === pseudoRun,
  );
  if (files.length === 0) throw new Error(`no integration tests (*.test.js) under ${__dirname}`);
  for (const file of files) mocha.addFile(file);
  tagOutput();
  Mocha.reporters.Base.consoleLog(
    `${files.length} integration test files, VS Code ${vscode.version}, Node ${process.version}`,
  );

  // A Set: the extension host reports some rejections twice.
  const unhandled = new Set<unknown>();
  const onUnhandled = (reason: unknown): void => {
    if (unhandled.has(reason)) return;
    unhandled.add(reason);
    console.error('Unhandled promise rejection during the integration tests:', reason);
  };
  process.on('unhandledRejection', onUnhandled);
  try {
    const failures = await new Promise<number>((resolve) => mocha.run(resolve));
    if (failures > 0) throw new Error(`${failures} integration test${failures === 1 ? '' : 's'} failed`);
    if (unhandled.size > 0) throw new Error(`${unhandled.size} unhandled promise rejection(s) during the tests`);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await closeSuiteMock();
  }
}

/** In code-server the launcher tells mocha's lines from the workbench's by this tag (see test/rig/launcher.ts). */
function tagOutput(): void {
  const tag = process.env.RIG_TEST_OUTPUT_TAG;
  if (tag === undefined) return;
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(tag + util.format(...args));
}

function findTests(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return findTests(full);
      return entry.isFile() && entry.name.endsWith('.test.js') ? [full] : [];
    })
    .sort();
}
