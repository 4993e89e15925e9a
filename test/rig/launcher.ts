/**
 * A stand-in for a desktop VS Code executable, for @vscode/test-electron's `runTests({ vscodeExecutablePath })`: it
 * takes the same flags, runs the extension tests in code-server's real extension host (driven by Chromium through the
 * smoke-test `payload` URL), prints their output and exits with their result. `test/rig/launch-vscode.sh` runs it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import { launchBrowser, setDisplayLanguage } from './browser';
import { startCodeServer, tail } from './codeServer';
import { ensureRig } from './install';
import { guardRun, stopAll } from './lifetime';
import { rigLog } from './log';
import { cacheDir } from './paths';
import { RunScratch } from './scratch';
import { versions } from './versions';

interface LaunchArgs {
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
  userDataDir?: string;
  extensionsDir?: string;
  folder?: string;
  locale?: string;
}

/** Reads the flags VS Code would get; the ones that mean nothing here (`--disable-gpu-sandbox` …) are ignored. */
export function parseArgs(argv: readonly string[]): LaunchArgs {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const match = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
    if (match === null) {
      positional.push(arg);
      continue;
    }
    const [, name = '', inline] = match;
    if (inline !== undefined) flags.set(name, inline);
    else if (valueFlags.has(name) && i + 1 < argv.length) flags.set(name, argv[++i] ?? '');
    else flags.set(name, 'true');
  }
  const extensionDevelopmentPath = flags.get('extensionDevelopmentPath');
  const extensionTestsPath = flags.get('extensionTestsPath');
  if (extensionDevelopmentPath === undefined || extensionTestsPath === undefined) {
    throw new Error(
      'usage: launch-vscode.sh --extensionDevelopmentPath=DIR --extensionTestsPath=FILE [--user-data-dir=DIR] [--extensions-dir=DIR] [FOLDER]',
    );
  }
  return {
    extensionDevelopmentPath: path.resolve(extensionDevelopmentPath),
    extensionTestsPath: resolveModule(path.resolve(extensionTestsPath)),
    userDataDir: optionalPath(flags.get('user-data-dir')),
    extensionsDir: optionalPath(flags.get('extensions-dir')),
    folder: optionalPath(positional[0]),
    locale: flags.get('locale'),
  };
}

const valueFlags = new Set([
  'extensionDevelopmentPath',
  'extensionTestsPath',
  'user-data-dir',
  'extensions-dir',
  'locale',
]);

function optionalPath(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : path.resolve(value);
}

/** `require` finds `index` as `index.js`; the workbench needs the file's real name. */
function resolveModule(file: string): string {
  return !fs.existsSync(file) && fs.existsSync(`${file}.js`) ? `${file}.js` : file;
}

/** The web workbench calls the remote `remoteAuthority` (it was `remote`); read it rather than assume it. */
async function remoteAuthority(serverUrl: string): Promise<string> {
  const html = await (await fetch(new URL('?ew=true', serverUrl), { signal: AbortSignal.timeout(10_000) })).text();
  const meta = /<meta id="vscode-workbench-web-configuration" data-settings="([^"]*)"/.exec(html)?.[1];
  if (meta === undefined) throw new Error('the workbench page has no vscode-workbench-web-configuration meta');
  const settings = JSON.parse(decodeEntities(meta)) as { remoteAuthority?: unknown };
  if (typeof settings.remoteAuthority !== 'string') {
    throw new Error('the workbench configuration has no remoteAuthority');
  }
  return settings.remoteAuthority;
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X')) return String.fromCodePoint(parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(parseInt(body.slice(1), 10));
    return named[body] ?? entity;
  });
}

/**
 * The workbench hands over, through `codeAutomationLog`, both the extension host's console and its own log lines, and
 * they look alike. So the launcher gives the extension host a tag (`RIG_TEST_OUTPUT_TAG`) that
 * `test/integration/index.ts` puts in front of mocha's output: tagged lines go to stdout, warnings and errors after the
 * tests started to stderr, and everything to `workbench.log`.
 */
const outputTag = `\u2063rig-${process.pid}\u2063`;

function workbenchLog(logFile: string): (type: unknown, args: unknown) => void {
  let testsStarted = false;
  return (type, args) => {
    const parts: unknown[] = Array.isArray(args) ? args : [args];
    const text = util.format(...parts);
    fs.appendFileSync(logFile, `[${String(type)}] ${text.replace(outputTag, '')}\n`);
    if (text.startsWith(outputTag)) {
      testsStarted = true;
      process.stdout.write(`${text.slice(outputTag.length)}\n`);
    } else if (testsStarted && (type === 'error' || type === 'warn')) {
      process.stderr.write(`${text}\n`);
    }
  };
}

export async function launch(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  // Output to a runner that is already gone must not turn into an uncaught EPIPE.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const rig = await ensureRig();
  const scratch = new RunScratch();
  const workbenchLogFile = scratch.path('workbench.log');
  let serverLog: string | undefined;
  const keepLogs = (): void => {
    const artifacts = path.join(cacheDir, 'artifacts', 'integration');
    scratch.keep(workbenchLogFile, path.join(artifacts, 'workbench.log'));
    if (serverLog === undefined) return;
    scratch.keep(serverLog, path.join(artifacts, 'code-server.log'));
    rigLog(
      `logs kept in ${path.relative(process.cwd(), artifacts)}; code-server's last lines:\n${tail(serverLog, 15)}`,
    );
  };
  const disposeGuard = guardRun({
    what: 'the extension tests in code-server',
    timeoutMs: Number(process.env.RIG_TEST_TIMEOUT_MS ?? 10 * 60_000),
    exitOnUncaught: true,
    exitWithParent: true,
    beforeStop: keepLogs,
  });
  let exitCode = 1;
  try {
    const server = await startCodeServer({
      rig,
      scratch,
      userDataDir: args.userDataDir,
      extensionsDir: args.extensionsDir,
      smokeTestDriver: true,
      locale: args.locale,
      env: { RIG_TEST_OUTPUT_TAG: outputTag },
    });
    serverLog = server.logFile;
    const authority = await remoteAuthority(server.url);
    const remote = (file: string): string => `vscode-remote://${authority}${file}`;
    const payload = [
      ['extensionDevelopmentPath', remote(args.extensionDevelopmentPath)],
      ['extensionTestsPath', remote(args.extensionTestsPath)],
    ];
    const url = new URL(server.url);
    if (args.folder !== undefined) url.searchParams.set('folder', args.folder);
    url.searchParams.set('payload', JSON.stringify(payload));

    const context = await launchBrowser(rig, scratch);
    if (args.locale !== undefined) await setDisplayLanguage(context, args.locale);
    const page = context.pages()[0] ?? (await context.newPage());
    let finish: (code: number) => void = () => undefined;
    const finished = new Promise<number>((resolve) => (finish = resolve));
    await page.exposeFunction('codeAutomationExit', (code: unknown) => finish(typeof code === 'number' ? code : 1));
    await page.exposeFunction('codeAutomationLog', workbenchLog(workbenchLogFile));
    page.on('crash', () => {
      rigLog('the workbench page crashed');
      finish(1);
    });
    rigLog(`running the extension tests in code-server (VS Code ${versions.codeServer.vscodeVersion}) …`);
    await page.goto(url.toString());
    exitCode = await finished;
  } finally {
    if (exitCode !== 0) keepLogs();
    await stopAll();
    scratch.dispose();
    disposeGuard();
  }
  return exitCode;
}

if (require.main === module) {
  launch(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      void stopAll().finally(() => process.exit(1));
    },
  );
}
