// Only parsed: `compute()` would run `Match exec`, so Match blocks are skipped whole. `Include` is followed only to
// files whose real path is inside `~/.ssh`.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as SshConfigModule from 'ssh-config' with { 'resolution-mode': 'import' };
import { hostKey } from '../ssh/hostKey';

// The package's CommonJS build (the one esbuild bundles); its types are written for its ES build.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parse, LineType } = require('ssh-config') as typeof SshConfigModule;
type Line = SshConfigModule.Line;

export interface SshBlock {
  readonly patterns: readonly string[];
  // Those of the Host blocks whose `Include` brought this one in: each must match too.
  readonly within: ReadonlyArray<readonly string[]>;
  readonly hostName: string;
}

export interface SshConfig {
  readonly blocks: readonly SshBlock[];
  readonly skipped: readonly string[];
}

export const SSH_LIMITS = {
  maxBytes: 256 * 1024,
  maxFiles: 16,
  maxDepth: 4,
  maxBlocks: 2_000,
  maxPatterns: 64,
  maxDirEntries: 256,
  timeMs: 2_000,
};

export const NO_SSH_CONFIG: SshConfig = { blocks: [], skipped: [] };

export async function readSshConfig(home: string, limits = SSH_LIMITS): Promise<SshConfig> {
  const reader = new ConfigReader(home, limits);
  const late = sleep(limits.timeMs, 'time' as const, { ref: false });
  // Half a config could send an alias elsewhere than ssh does: past the time, none at all.
  const done = await Promise.race([reader.file(path.join(home, '.ssh', 'config'), [], 0), late]);
  return done === 'time' ? { blocks: [], skipped: ['time'] } : { blocks: reader.blocks, skipped: [...reader.skipped] };
}

class ConfigReader {
  readonly blocks: SshBlock[] = [];
  readonly skipped = new Set<string>();
  private readonly seen = new Set<string>();
  private files = 0;
  private root?: Promise<string | undefined>;

  constructor(
    private readonly home: string,
    private readonly limits: typeof SSH_LIMITS,
  ) {}

  async file(file: string, within: ReadonlyArray<readonly string[]>, depth: number): Promise<void> {
    let lines: Line[];
    try {
      const real = await fs.realpath(file);
      if (this.seen.has(real)) return;
      this.seen.add(real);
      // Not a FIFO or a device: reading one could wait for ever.
      const stat = await fs.stat(real);
      if (!stat.isFile()) return;
      if (stat.size > this.limits.maxBytes) return void this.skipped.add('size');
      if (++this.files > this.limits.maxFiles) return void this.skipped.add('files');
      const text = await fs.readFile(real, 'utf8');
      // An unclosed quote or a Host with no pattern throws: ssh refuses the whole file too.
      lines = parse(text);
    } catch (error) {
      if (error instanceof Error && !('code' in error)) this.skipped.add('syntax');
      return;
    }
    await this.walk(lines, ['*'], within, depth);
  }

  private async walk(
    lines: readonly Line[],
    patterns: readonly string[],
    within: ReadonlyArray<readonly string[]>,
    depth: number,
  ): Promise<void> {
    let hostName: string | undefined;
    const close = (): void => {
      if (hostName !== undefined && this.blocks.length < this.limits.maxBlocks) {
        this.blocks.push({ patterns, within, hostName });
      }
      hostName = undefined;
    };
    for (const line of lines) {
      if (line.type !== LineType.DIRECTIVE) continue;
      const param = line.param.toLowerCase();
      if ('config' in line) {
        close();
        const args = values(line.value).slice(0, this.limits.maxPatterns);
        if (param === 'host') await this.walk(line.config, args.map(lower), within, depth);
        continue;
      }
      if (param === 'hostname') {
        hostName ??= values(line.value)[0];
      } else if (param === 'include') {
        // The first HostName wins: what came before the Include goes before what it brings in.
        close();
        const inner = patterns.length === 1 && patterns[0] === '*' ? within : [...within, patterns];
        for (const arg of values(line.value)) await this.include(arg, inner, depth);
      }
    }
    close();
  }

  private async include(arg: string, within: ReadonlyArray<readonly string[]>, depth: number): Promise<void> {
    if (depth >= this.limits.maxDepth) return void this.skipped.add('depth');
    const root = await (this.root ??= realpath(path.join(this.home, '.ssh')));
    if (root === undefined || /[%$[\]{}`\\]/.test(arg) || (arg.startsWith('~') && !arg.startsWith('~/'))) {
      return void this.skipped.add('outside');
    }
    const full = arg.startsWith('~/') ? path.join(this.home, arg.slice(2)) : path.resolve(root, arg);
    const dir = await realpath(path.dirname(full));
    if (dir === undefined || (dir !== root && !isInside(root, dir))) return void this.skipped.add('outside');
    const base = path.basename(full);
    const listed = /[*?]/.test(base) ? await fs.readdir(dir).catch(() => []) : [base];
    // glob(3): sorted, and a dot file only when the pattern asks for one.
    const names = listed
      .slice(0, this.limits.maxDirEntries)
      .filter((name) => name === base || (name.startsWith('.') === base.startsWith('.') && globMatch(name, base)))
      .sort();
    for (const name of names) {
      const file = await realpath(path.join(dir, name));
      if (file === undefined) continue;
      if (isInside(root, file)) await this.file(file, within, depth + 1);
      else this.skipped.add('outside');
    }
  }
}

async function realpath(file: string): Promise<string | undefined> {
  try {
    return await fs.realpath(file);
  } catch {
    return undefined;
  }
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

function values(value: SshConfigModule.Directive['value']): string[] {
  return typeof value === 'string' ? [value] : value.map((part) => part.val);
}

const lower = (text: string): string => text.toLowerCase();

const MATCH_BUDGET = 1_000_000;

// Backing up only to the last `*`: at most text × pattern steps.
export function globMatch(text: string, pattern: string, budget = { left: MATCH_BUDGET }): boolean {
  let t = 0;
  let p = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (--budget.left < 0) return false;
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      t++;
      p++;
    } else if (pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

export function patternsMatch(patterns: readonly string[], host: string, budget = { left: MATCH_BUDGET }): boolean {
  let matched = false;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) {
      if (globMatch(host, pattern.slice(1), budget)) return false;
    } else {
      matched ||= globMatch(host, pattern, budget);
    }
  }
  return matched;
}

// Undefined when not known: a token other than `%h` and `%%`, no plain host, the budget spent.
export function effectiveHost(config: SshConfig, host: string): string | undefined {
  const alias = host.toLowerCase();
  if (alias.length > 253) return undefined;
  const budget = { left: MATCH_BUDGET };
  const block = config.blocks.find(
    (b) => patternsMatch(b.patterns, alias, budget) && b.within.every((p) => patternsMatch(p, alias, budget)),
  );
  if (budget.left < 0) return undefined;
  if (!block) return hostKey(alias);
  const expanded = expandHostName(block.hostName, alias);
  return expanded === undefined ? undefined : hostKey(expanded);
}

function expandHostName(value: string, host: string): string | undefined {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    if (value[i] !== '%') {
      out += value[i];
      continue;
    }
    const token = value[++i];
    if (token === 'h') out += host;
    else if (token === '%') out += '%';
    else return undefined;
  }
  return out;
}
