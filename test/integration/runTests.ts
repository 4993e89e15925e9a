/**
 * Runs the integration suites in a real VS Code with @vscode/test-electron's `runTests`: the desktop VS Code at
 * `VSCODE_EXECUTABLE_PATH` when set, otherwise (offline) code-server through `test/rig/launch-vscode.sh`. The run's one
 * mock API (the suite mock, see harness.ts) runs inside the extension host; this runner only reserves its loopback
 * address and hands it over through the user settings and the environment.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { seedSettings } from '../rig/codeServer';
import { ensureRig } from '../rig/install';
import { guardRun, stopAll, stopChildProcesses } from '../rig/lifetime';
import { rigLog } from '../rig/log';
import { cacheDir, projectRoot } from '../rig/paths';
import { RunScratch } from '../rig/scratch';
import { DEMO_API_KEY } from '../mock-api/server';

const launcher = path.join(projectRoot, 'test', 'rig', 'launch-vscode.sh');

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<number> {
  const desktop = process.env.VSCODE_EXECUTABLE_PATH;
  // `-- --locale qps-ploc` runs the pseudo-locale suite (test/integration/pseudoLocale/) in that display language.
  const locale = argument('--locale');
  guardRun({
    what: 'the integration tests',
    // Longer than the launcher's own limit (RIG_TEST_TIMEOUT_MS, 10 min), which ends a hung test run with its logs.
    timeoutMs: Number(process.env.RIG_RUN_TIMEOUT_MS ?? 15 * 60_000),
    exitOnUncaught: true,
    // VS Code (or the launcher) stops first: the run folder it uses goes after it.
    beforeStop: () => stopChildProcesses(),
  });
  if (!fs.existsSync(path.join(projectRoot, 'dist', 'extension.js'))) {
    throw new Error('dist/extension.js is missing: run `npm run compile` first (npm run test:integration does)');
  }
  // Installed before the run, so a first run's install is not counted against the tests' own timeout.
  if (desktop === undefined) await ensureRig();
  // Where the launcher keeps code-server's and the workbench's logs when the run fails: only this run's.
  fs.rmSync(path.join(cacheDir, 'artifacts', 'integration'), { recursive: true, force: true });

  const scratch = new RunScratch();
  // The suite mock's address: the extension starts with it in its settings, the harness serves it.
  const suiteMockUrl = `http://127.0.0.1:${await freeLoopbackPort()}`;

  const workspace = scratch.path('workspace');
  const userDataDir = scratch.path('user-data');
  const extensionsDir = scratch.path('extensions');
  fs.mkdirSync(workspace);
  fs.mkdirSync(extensionsDir);
  // A stand-in for Remote - SSH that records what it is asked to open. code-server takes it from the extensions
  // folder (it loads one development extension only); a desktop VS Code runs with extensions disabled, so it gets it
  // as a second development extension.
  const standIn = path.join(projectRoot, 'test', 'integration', 'remote-ssh-stand-in');
  fs.cpSync(standIn, path.join(extensionsDir, 'hosting-tools-tests.remote-ssh-stand-in-0.0.1'), { recursive: true });
  seedSettings(userDataDir, { 'hostingAccount.baseUrl': suiteMockUrl });

  rigLog(
    `suite mock API at ${suiteMockUrl}; ${desktop === undefined ? 'VS Code: code-server' : `VS Code: ${desktop}`}`,
  );
  try {
    await runTests({
      vscodeExecutablePath: desktop ?? launcher,
      extensionDevelopmentPath: desktop === undefined ? projectRoot : [projectRoot, standIn],
      extensionTestsPath: path.join(__dirname, 'index.js'),
      launchArgs: [
        workspace,
        `--user-data-dir=${userDataDir}`,
        `--extensions-dir=${extensionsDir}`,
        '--disable-extensions',
        ...(locale === undefined ? [] : [`--locale=${locale}`]),
      ],
      extensionTestsEnv: {
        HOSTING_ACCOUNT_TEST_API_URL: suiteMockUrl,
        HOSTING_ACCOUNT_TEST_API_KEY: DEMO_API_KEY,
        HOSTING_ACCOUNT_TEST_COLOR: process.stdout.isTTY ? '1' : '0',
        // `npm run test:integration -- --grep faults` runs the matching tests only.
        HOSTING_ACCOUNT_TEST_GREP: argument('--grep') ?? '',
        HOSTING_ACCOUNT_TEST_LOCALE: locale ?? '',
        // A desktop VS Code keeps its temporary files and sockets in the run's folder too.
        TMPDIR: scratch.path('tmp'),
        XDG_RUNTIME_DIR: scratch.path('rt'),
      },
    });
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  } finally {
    await stopAll();
  }
}

/** A loopback port free right now: the kernel picks it, and it is released at once for the extension host to take. */
async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    void stopAll().finally(() => process.exit(1));
  },
);
