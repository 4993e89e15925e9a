import * as fs from 'node:fs';
import { rigLog } from './log';

/** Something a run started and must stop, whatever way the run ends. */
export interface Resource {
  readonly name: string;
  /** Graceful stop; bounded by the caller. */
  stop(): Promise<void>;
  /** Last resort at process exit: synchronous, so it still runs when Node is going down. */
  killNow(): void;
}

const resources = new Set<Resource>();
const stopTimeoutMs = 15_000;
let exitHookInstalled = false;

/** Registers a resource; the returned function unregisters it (call it once it has stopped). */
export function track(resource: Resource): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const leftover of [...resources].reverse()) leftover.killNow();
      resources.clear();
    });
  }
  resources.add(resource);
  return () => resources.delete(resource);
}

let stopping = false;

/** True once `stopAll` has begun: a server exiting then was stopped by us, not by a crash. */
export function isStopping(): boolean {
  return stopping;
}

/** Stops everything still tracked, newest first. */
export async function stopAll(): Promise<void> {
  stopping = true;
  const list = [...resources].reverse();
  for (const resource of list) {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        resource.stop(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), stopTimeoutMs);
        }),
      ]);
    } catch (error) {
      rigLog(`stopping ${resource.name} failed (${String(error)}); killing it`);
      resource.killNow();
    } finally {
      clearTimeout(timer);
      resources.delete(resource);
    }
  }
}

const signalExitCodes: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export interface GuardOptions {
  /** What the run is, for messages. */
  readonly what: string;
  /** The run is ended after this long, with a clear message (none: runs until stopped). */
  readonly timeoutMs?: number;
  /** The exit code after SIGINT/SIGTERM/SIGHUP (default 130, 143, 129: the shell's 128 + signal). */
  readonly signalExitCode?: number;
  /** Also end the run on an uncaught exception or unhandled rejection (leave false inside mocha: it reports them). */
  readonly exitOnUncaught?: boolean;
  /** End the run when the process that started this one goes away (a launcher whose runner was killed). */
  readonly exitWithParent?: boolean;
  /** Runs first when the guard ends the run: keep logs, let child processes stop on their own. */
  readonly beforeStop?: () => void | Promise<void>;
}

/** A terminal's Ctrl-C and a runner forwarding it arrive together: only a signal after this long means "hurry". */
const repeatSignalMs = 3_000;

/**
 * Ends the whole run cleanly on SIGINT, SIGTERM, SIGHUP, the overall timeout and (optionally) an uncaught error or the
 * parent's death: every tracked server and browser is stopped first. A signal repeated a few seconds later kills at
 * once (the exit hook still kills what is left). Returns a disposer for the guards.
 */
export function guardRun(options: GuardOptions): () => void {
  let endedAt: number | undefined;
  const end = (reason: string, exitCode: number): void => {
    if (endedAt !== undefined) {
      if (Date.now() - endedAt < repeatSignalMs) return;
      rigLog(`${reason} again: killing at once`);
      process.exit(exitCode);
    }
    endedAt = Date.now();
    rigLog(reason);
    void (async () => {
      try {
        await options.beforeStop?.();
      } catch (error) {
        rigLog(`before stopping: ${String(error)}`);
      }
      await stopAll().catch(() => undefined);
      process.exit(exitCode);
    })();
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    const code = options.signalExitCode ?? signalExitCodes[signal] ?? 1;
    end(`${signal}: stopping everything ${options.what} started`, code);
  };
  const onUncaught = (error: unknown): void => {
    console.error(error);
    end(`uncaught error in ${options.what}: stopping everything it started`, 1);
  };
  const { timeoutMs } = options;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          end(
            `${options.what} did not finish within ${Math.round(timeoutMs / 1000)} s: stopping it (overall timeout)`,
            124,
          );
        }, timeoutMs).unref();
  const parent = process.ppid;
  const watchdog = setInterval(() => {
    if (options.exitWithParent === true && process.ppid !== parent) {
      end(`the process that started ${options.what} is gone`, 1);
    }
  }, 1_000);
  watchdog.unref();
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, onSignal);
  if (options.exitOnUncaught === true) {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
  }
  return () => {
    clearTimeout(timer);
    clearInterval(watchdog);
    for (const signal of signals) process.off(signal, onSignal);
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
  };
}

/**
 * Asks this process's direct children to stop (SIGTERM) and waits for them, then kills what is left. For children
 * started by libraries that do not hand out the process (@vscode/test-electron's VS Code or launcher).
 */
export async function stopChildProcesses(graceMs = 20_000): Promise<void> {
  const children = childPids();
  for (const pid of children) signalPid(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (children.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const pid of children) signalPid(pid, 'SIGKILL');
}

function childPids(): number[] {
  const pids: number[] = [];
  for (const { pid, ppid } of processTable()) if (ppid === process.pid) pids.push(pid);
  return pids;
}

/** Every process's pid and parent, from /proc (empty where there is no /proc). */
export function processTable(): { pid: number; ppid: number }[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const table: { pid: number; ppid: number }[] = [];
  for (const name of names) {
    try {
      // "pid (comm) state ppid …", and comm may itself hold spaces and parentheses.
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      table.push({ pid: Number(name), ppid });
    } catch {
      // Gone meanwhile.
    }
  }
  return table;
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

/** Kills a whole process group, ignoring one that is already gone. */
export function killGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group is still there. */
export function groupAlive(pgid: number): boolean {
  return killGroup(pgid, 0);
}

/** Whether a process exists (a pid in a leftover folder's name, for instance). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
