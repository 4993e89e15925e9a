import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isAlive, processTable, track } from './lifetime';
import { runsDir } from './paths';

/**
 * A run's own folder under `.vscode-test/runs/`: profiles, logs, and the home, temp and XDG folders of everything the
 * run starts, so nothing lands in the home folder or /tmp. Deleted when the run ends (even on a crash); a folder left
 * by a killed run is deleted by the next one.
 */
export class RunScratch {
  readonly dir: string;
  private readonly untrack: () => void;
  private removed = false;

  constructor() {
    fs.mkdirSync(runsDir, { recursive: true });
    removeOrphans();
    // Short on purpose: VS Code puts Unix sockets in XDG_RUNTIME_DIR, and socket paths are limited to ~107 bytes.
    this.dir = path.join(runsDir, `${process.pid}-${randomBytes(2).toString('hex')}`);
    for (const sub of ['home', 'tmp', 'cfg', 'data', 'cache', 'state']) {
      fs.mkdirSync(path.join(this.dir, sub), { recursive: true });
    }
    fs.mkdirSync(path.join(this.dir, 'rt'), { mode: 0o700 });
    this.untrack = track({
      name: 'scratch folder',
      stop: () => Promise.resolve(this.remove()),
      killNow: () => this.remove(),
    });
  }

  path(...parts: string[]): string {
    return path.join(this.dir, ...parts);
  }

  /** Where a child process keeps its files. */
  env(): Record<string, string> {
    return {
      HOME: this.path('home'),
      TMPDIR: this.path('tmp'),
      XDG_CONFIG_HOME: this.path('cfg'),
      XDG_DATA_HOME: this.path('data'),
      XDG_CACHE_HOME: this.path('cache'),
      XDG_STATE_HOME: this.path('state'),
      XDG_RUNTIME_DIR: this.path('rt'),
    };
  }

  /** Copies a file out before the folder goes (a log kept after a failure). */
  keep(file: string, destination: string): void {
    if (!fs.existsSync(file)) return;
    fs.mkdirSync(path.dirname(destination), { recursive: true });
    fs.copyFileSync(file, destination);
  }

  dispose(): void {
    this.untrack();
    this.remove();
  }

  private remove(): void {
    if (this.removed) return;
    this.removed = true;
    killOrphansUsing(this.dir);
    fs.rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * The last sweep before the folder goes: an orphaned process (its parent gone) whose command line or environment
 * names the folder was started by this run and escaped its process group (Chromium's crash handler daemonizes, an
 * extension host outlives a killed server). Live processes are left to their owners' orderly stop.
 */
function killOrphansUsing(dir: string): void {
  for (const { pid, ppid } of processTable()) {
    if (ppid !== 1 || pid === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
      if (cmdline.includes(dir) || environ.includes(dir)) process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already, or not ours to read.
    }
  }
}

function removeOrphans(): void {
  for (const name of fs.readdirSync(runsDir)) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (pid > 0 && pid !== process.pid && !isAlive(pid)) {
      killOrphansUsing(path.join(runsDir, name));
      fs.rmSync(path.join(runsDir, name), { recursive: true, force: true });
    }
  }
}
