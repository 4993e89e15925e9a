import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { type RigInstall } from './install';
import { groupAlive, killGroup, track } from './lifetime';
import { type RunScratch } from './scratch';

/** The recipe's settings that keep the workbench quiet and offline. */
export const quietSettings: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'workbench.enableExperiments': false,
  'git.enabled': false,
};

export interface CodeServerOptions {
  readonly rig: RigInstall;
  readonly scratch: RunScratch;
  /** Default: a free port. */
  readonly port?: number;
  /** Default: 127.0.0.1. */
  readonly host?: string;
  /** Default: `user-data` in the scratch folder. */
  readonly userDataDir?: string;
  /** Default: `extensions` in the scratch folder. */
  readonly extensionsDir?: string;
  /** User settings on top of the quiet ones (and of any already in the profile). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** `.vsix` files installed into the profile before the server starts. */
  readonly installExtensions?: readonly string[];
  /** The folder the workbench opens. */
  readonly folder?: string;
  /** Lets the workbench honour the `payload` URL parameter (extension tests). */
  readonly smokeTestDriver?: boolean;
  /** Leave workspace trust on (VS Code's default), to test the extension in a workspace opened as untrusted. */
  readonly workspaceTrust?: boolean;
  /** The display language (`--locale`), e.g. the pseudo-locale `qps-ploc`; VS Code's default (English) otherwise. */
  readonly locale?: string;
  /** Extra environment for the server and its extension host. */
  readonly env?: Readonly<Record<string, string>>;
  readonly startTimeoutMs?: number;
}

export interface CodeServer {
  /** `http://host:port/` */
  readonly url: string;
  readonly port: number;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** The server's stdout and stderr (and those of `--install-extension`). */
  readonly logFile: string;
  /** Settles when the server process exits, with its exit code. */
  readonly exited: Promise<number | null>;
  /** Stops the whole process group: SIGTERM, then SIGKILL after a grace period. */
  stop(): Promise<void>;
}

const gracePeriodMs = 5_000;

/** Starts code-server on Node 24, in its own process group, with a profile inside the run's scratch folder. */
export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const { rig, scratch } = options;
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort(host));
  const userDataDir = options.userDataDir ?? scratch.path('user-data');
  const extensionsDir = options.extensionsDir ?? scratch.path('extensions');
  const logFile = scratch.path('code-server.log');
  fs.mkdirSync(extensionsDir, { recursive: true });
  seedSettings(userDataDir, options.settings ?? {});
  // An empty gallery: offline, the marketplace look-ups only fail and fill the logs.
  const env = { ...process.env, EXTENSIONS_GALLERY: '{}', ...scratch.env(), ...options.env };
  const profile = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  for (const vsix of options.installExtensions ?? []) {
    const installer = spawnLogged(rig, [...profile, '--install-extension', vsix], env, logFile);
    const kill = (): void => void (installer.pid !== undefined && killGroup(installer.pid, 'SIGKILL'));
    const untrackInstaller = track({
      name: 'code-server --install-extension',
      stop: () => Promise.resolve(kill()),
      killNow: kill,
    });
    const code = await exited(installer, 120_000).finally(untrackInstaller);
    if (code !== 0) {
      throw new Error(`code-server --install-extension ${vsix} failed (${code}); see ${logFile}:\n${tail(logFile)}`);
    }
  }

  const args = [
    '--auth',
    'none',
    '--bind-addr',
    `${host}:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...profile,
  ];
  if (options.workspaceTrust !== true) args.push('--disable-workspace-trust');
  if (options.smokeTestDriver === true) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (options.locale !== undefined) args.push('--locale', options.locale);
  if (options.folder !== undefined) args.push(options.folder);
  const server = spawnLogged(rig, args, env, logFile);
  const pgid = server.pid;
  if (pgid === undefined) throw new Error('code-server did not start');

  let exitCode: number | null | undefined;
  const exitedPromise = new Promise<number | null>((resolve) => {
    server.once('exit', (code) => resolve((exitCode = code)));
  });
  const stop = async (): Promise<void> => {
    untrack();
    if (!groupAlive(pgid)) return;
    killGroup(pgid, 'SIGTERM');
    const deadline = Date.now() + gracePeriodMs;
    while (groupAlive(pgid) && Date.now() < deadline) await delay(100);
    killGroup(pgid, 'SIGKILL');
  };
  const untrack = track({ name: `code-server on port ${port}`, stop, killNow: () => killGroup(pgid, 'SIGKILL') });

  const url = `http://${host}:${port}/`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exitCode !== undefined) {
      await stop();
      throw new Error(`code-server exited (${exitCode}) before it was ready:\n${tail(logFile)}`);
    }
    if (await isHealthy(url)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer ${url}healthz within the timeout:\n${tail(logFile)}`);
    }
    await delay(150);
  }
  return { url, port, userDataDir, extensionsDir, logFile, exited: exitedPromise, stop };
}

/** Writes `User/settings.json`: quiet settings, then what the profile already had, then the caller's. */
export function seedSettings(userDataDir: string, settings: Readonly<Record<string, unknown>>): void {
  const file = path.join(userDataDir, 'User', 'settings.json');
  let existing: Record<string, unknown> = {};
  try {
    existing = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    // No settings yet (or not plain JSON): start from the quiet ones.
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ ...quietSettings, ...existing, ...settings }, null, 2)}\n`);
}

/** Node 24 runs code-server's entry point directly: `.bin/code-server` would pick the system Node. */
function spawnLogged(rig: RigInstall, args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const fd = fs.openSync(logFile, 'a');
  try {
    return spawn(rig.nodeBinary, [rig.codeServerEntry, ...args], { env, detached: true, stdio: ['ignore', fd, fd] });
  } finally {
    fs.closeSync(fd);
  }
}

function exited(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
      reject(new Error(`code-server ${child.spawnargs.slice(2).join(' ')} did not finish in ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

async function isHealthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('healthz', url), { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The end of a log file, for error messages. */
export function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
