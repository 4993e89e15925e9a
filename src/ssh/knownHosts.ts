import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { checkHost, isSafePort, isSharedHost } from '../util/hostCheck';
import { hostKey } from './hostKey';
import { RUN_DEFAULTS, runArgv, type RunOptions, type RunOutcome } from './runArgv';

const MAX_ADDRESSES = 16;
const MAX_PATH = 1_024;
// Each host forgotten is named in the question.
export const MAX_FORGOTTEN = 8;

export interface ForgetPlan {
  readonly hosts: readonly string[];
  readonly left: number;
}

// A host name only when it is the server's main address, never a shared host (a code forge, loopback): the user
// trusts that key for something else.
export function forgetPlan(addresses: readonly string[], ownName: string | undefined): ForgetPlan {
  const own = hostKey(ownName);
  const keys: string[] = [];
  const hosts: string[] = [];
  let left = 0;
  for (const address of addresses.slice(0, MAX_ADDRESSES)) {
    const check = checkHost(address);
    const key = hostKey(address);
    if (!check.ok || key === undefined || keys.includes(key) || isSharedHost(key)) continue;
    if (check.kind === 'name' && key !== own) continue;
    keys.push(key);
    if (hosts.length < MAX_FORGOTTEN) hosts.push(address);
    else left++;
  }
  return { hosts, left };
}

// One argv per form ssh may have written: IPv6 as given and canonical; `[host]:port` off 22.
export function forgetHostKeyArgs(addresses: readonly string[], port: number, knownHostsFile?: string): string[][] {
  if (!isSafePort(port)) throw new RangeError('not a port number');
  const file = knownHostsFile === undefined ? [] : ['-f', checkedFile(knownHostsFile)];
  const hosts: string[] = [];
  for (const address of addresses.slice(0, MAX_ADDRESSES)) {
    const check = checkHost(address);
    if (!check.ok) continue;
    const forms = check.kind === 'name' ? [check.host.toLowerCase()] : [check.host.toLowerCase(), hostKey(check.host)];
    for (const form of forms) if (form !== undefined && !hosts.includes(form)) hosts.push(form);
  }
  const argvs: string[][] = [];
  for (const host of hosts) {
    argvs.push([...file, '-R', host]);
    if (port !== 22) argvs.push([...file, '-R', `[${host}]:${port}`]);
  }
  return argvs;
}

function checkedFile(file: string): string {
  if (file.length === 0 || file.length > MAX_PATH || file.startsWith('-')) throw new RangeError('not a plain path');
  for (let i = 0; i < file.length; i++) {
    if (file.charCodeAt(i) < 0x20 || file.charCodeAt(i) === 0x7f) throw new RangeError('not a plain path');
  }
  return file;
}

export interface ForgetReport {
  readonly removed: ReadonlyArray<{ readonly host: string; readonly line: number }>;
  readonly updated: boolean;
  readonly notFound: boolean;
  readonly noFile: boolean;
}

const MAX_OUTPUT = 64 * 1024;
const MAX_REMOVED = 256;
const MAX_HOST_TEXT = 300;

// Paths (text from the file system) are never kept.
export function parseForgetOutput(stdout: string, stderr: string): ForgetReport {
  const removed: Array<{ host: string; line: number }> = [];
  let updated = false;
  let notFound = false;
  let noFile = false;
  for (const line of `${stdout.slice(0, MAX_OUTPUT)}\n${stderr.slice(0, MAX_OUTPUT)}`.split('\n')) {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.startsWith('# Host ')) {
      const found = foundEntry(text);
      if (found && removed.length < MAX_REMOVED) removed.push(found);
    } else if (text.endsWith(' updated.')) {
      updated = true;
    } else if (text.startsWith('Host ') && text.includes(' not found in ')) {
      notFound = true;
    } else if (text.startsWith('Cannot stat ')) {
      noFile = true;
    }
  }
  return { removed, updated, notFound, noFile };
}

function foundEntry(text: string): { host: string; line: number } | undefined {
  const marker = ' found: line ';
  const at = text.lastIndexOf(marker);
  if (at < 0) return undefined;
  const host = text.slice('# Host '.length, at);
  // Older versions add ` type <key type>` after the number.
  const digits = /^\d{1,9}/.exec(text.slice(at + marker.length, at + marker.length + 12))?.[0];
  if (!digits || !isPlainText(host)) return undefined;
  return { host, line: Number(digits) };
}

function isPlainText(text: string): boolean {
  if (text.length === 0 || text.length > MAX_HOST_TEXT) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code >= 0x7f) return false;
  }
  return true;
}

export type HostKeyFailure = 'changed' | 'verificationFailed';

const HEAD = 256 * 1024;
const TAIL = 4 * 1024;
const CHANGED = 'REMOTE HOST IDENTIFICATION HAS CHANGED';
const FAILED = 'Host key verification failed.';

// 255 is ssh's own failure; undefined when not known (a terminal). ssh writes these at the start and the end.
export function hostKeyFailure(stderr: string, exitCode?: number | null): HostKeyFailure | undefined {
  if (exitCode !== undefined && exitCode !== 255) return undefined;
  const head = stderr.slice(0, HEAD);
  const tail = stderr.length > HEAD ? stderr.slice(-TAIL) : '';
  if (head.includes(CHANGED)) return 'changed';
  if (head.includes(FAILED) || tail.includes(FAILED)) return 'verificationFailed';
  return undefined;
}

export type HostKeyAdvice = 'offerToForget' | 'warnChanged' | 'none';

// A changed key with no reinstall known: offer nothing that would hide an attack.
export function hostKeyAdvice(failure: HostKeyFailure | undefined, reinstalledSinceConnect: boolean): HostKeyAdvice {
  if (failure !== 'changed') return 'none';
  return reinstalledSinceConnect ? 'offerToForget' : 'warnChanged';
}

export interface ForgetOptions extends Partial<RunOptions> {
  readonly sshKeygen?: string;
  readonly knownHostsFile?: string;
  readonly run?: typeof runArgv;
}

export type ForgetOutcome =
  | {
      readonly kind: 'done';
      readonly removed: ReadonlyArray<{ readonly host: string; readonly line: number }>;
      readonly failedRuns: number;
    }
  | { readonly kind: 'notRun'; readonly problem: 'notFound' | 'notAllowed' | 'failedToStart' };

// One at a time: each rewrites the file.
export async function forgetHostKeys(
  addresses: readonly string[],
  port: number,
  options: ForgetOptions = {},
): Promise<ForgetOutcome> {
  const argvs = forgetHostKeyArgs(addresses, port, options.knownHostsFile);
  const run = options.run ?? runArgv;
  const runOptions: RunOptions = {
    timeoutMs: options.timeoutMs ?? RUN_DEFAULTS.timeoutMs,
    maxOutputBytes: options.maxOutputBytes ?? RUN_DEFAULTS.maxOutputBytes,
    env: options.env,
    signal: options.signal,
  };
  const file = options.knownHostsFile ?? join(homedir(), '.ssh', 'known_hosts');
  const hosts = argvs.map((argv) => argv.at(-1) ?? '');
  const removed: Array<{ host: string; line: number }> = await unshare(file, hosts).catch(() => []);
  let failedRuns = 0;
  for (const argv of argvs) {
    const outcome: RunOutcome = await run(options.sshKeygen ?? 'ssh-keygen', argv, runOptions);
    if (!outcome.ok) return { kind: 'notRun', problem: outcome.problem };
    const report = parseForgetOutput(outcome.stdout, outcome.stderr);
    removed.push(...report.removed.slice(0, MAX_REMOVED - removed.length));
    const fine = outcome.exitCode === 0 || (outcome.exitCode === 255 && report.noFile);
    if (!fine || outcome.timedOut || outcome.outputCut) failedRuns++;
    if (outcome.cancelled) break;
  }
  return { kind: 'done', removed, failedRuns };
}

// `ssh-keygen -R` removes a whole line: a host written on one with other names (`github.com,140.82.112.3 …`) is taken
// out of it here, and the others keep their key. Hashed lines (one host each), markers and comments are left to it.
async function unshare(file: string, hosts: readonly string[]): Promise<Array<{ host: string; line: number }>> {
  const text = await readFile(file, 'utf8');
  const taken: Array<{ host: string; line: number }> = [];
  const lines = text.split('\n').map((line, index) => {
    const names = line.slice(0, line.search(/\s|$/));
    const all = /^[^#@|]/.test(names) ? names.split(',') : [];
    const kept = all.filter((name) => !hosts.includes(name.toLowerCase()));
    if (kept.length === all.length || !kept.length) return line;
    for (const host of all) if (!kept.includes(host)) taken.push({ host, line: index + 1 });
    return kept.join(',') + line.slice(names.length);
  });
  if (!taken.length) return [];
  // As ssh-keygen does, the file as it was is kept beside it.
  await copyFile(file, `${file}.old`);
  await writeFile(file, lines.join('\n'));
  return taken;
}
