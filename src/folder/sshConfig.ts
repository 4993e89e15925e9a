/**
 * What `~/.ssh/config` says about hosts: its `Host` lines and the `HostName` each gives, enough to tell which host an
 * alias stands for. Nothing is run (`Match` blocks are skipped whole, `exec` included) and no token is expanded but the
 * `%h` and `%%` a HostName may hold. `Include` is followed within bounds: relative to `~/.ssh` or `~/`, inside the home
 * folder, `*` only in the last segment, each file once, a few levels deep. Free of `vscode`.
 */
import * as path from 'node:path';
import { beforeDeadline, completeLines, type Deadline, deadlineIn, expired, type FileReader } from './fileReader';
import { hostKey } from '../ssh/hostKey';

export interface SshHostBlock {
  /** The `Host` line's patterns in lower case, negated ones with their `!`; `*` for what precedes any `Host` line. */
  readonly patterns: readonly string[];
  /** The `Host` lines of the blocks that included this one's file: each must match too. */
  readonly within: ReadonlyArray<readonly string[]>;
  /** The first `HostName` of the block, as written. */
  readonly hostName?: string;
}

export type SshConfigLimit = 'bytes' | 'lines' | 'blocks' | 'files' | 'depth' | 'time';

export interface SshConfig {
  readonly blocks: readonly SshHostBlock[];
  /** Files read, the main one included. */
  readonly files: number;
  /** `Include` arguments not followed: outside the home folder, tokens, globs other than `*` in the last segment. */
  readonly skippedIncludes: number;
  /** The bounds that cut the reading short. */
  readonly limited: readonly SshConfigLimit[];
}

export interface SshConfigLimits {
  readonly maxBytesPerFile: number;
  readonly maxFiles: number;
  /** Include levels below the main file. */
  readonly maxDepth: number;
  readonly maxLines: number;
  /** Longer lines are skipped: no host name or path needs them. */
  readonly maxLineLength: number;
  readonly maxBlocks: number;
  readonly maxPatterns: number;
  /** Names listed in a directory an `Include` glob reads. */
  readonly maxDirEntries: number;
  readonly timeMs: number;
}

export const SSH_CONFIG_LIMITS: SshConfigLimits = {
  maxBytesPerFile: 256 * 1024,
  maxFiles: 16,
  maxDepth: 4,
  maxLines: 20_000,
  maxLineLength: 4_096,
  maxBlocks: 2_000,
  maxPatterns: 64,
  maxDirEntries: 256,
  timeMs: 1_000,
};

const MAX_ARGS = 256;

export interface SshConfigSource {
  /** The user's home folder; the config is `<home>/.ssh/config`. */
  readonly home: string;
  readonly reader: FileReader;
  readonly now?: () => number;
}

export const EMPTY_SSH_CONFIG: SshConfig = { blocks: [], files: 0, skippedIncludes: 0, limited: [] };

export async function readSshConfig(
  source: SshConfigSource,
  limits: SshConfigLimits = SSH_CONFIG_LIMITS,
): Promise<SshConfig> {
  const walk = new ConfigWalk(source, limits, deadlineIn(limits.timeMs, source.now));
  await walk.file(path.join(source.home, '.ssh', 'config'), [], 0);
  return walk.result();
}

interface OpenBlock {
  patterns: readonly string[];
  within: ReadonlyArray<readonly string[]>;
  hostName?: string;
}

class ConfigWalk {
  private readonly blocks: SshHostBlock[] = [];
  private readonly seen = new Set<string>();
  private readonly limited = new Set<SshConfigLimit>();
  private lines = 0;
  private files = 0;
  private skippedIncludes = 0;
  private stopped = false;

  constructor(
    private readonly source: SshConfigSource,
    private readonly limits: SshConfigLimits,
    private readonly deadline: Deadline,
  ) {}

  result(): SshConfig {
    return {
      blocks: this.blocks,
      files: this.files,
      skippedIncludes: this.skippedIncludes,
      limited: [...this.limited],
    };
  }

  async file(file: string, within: ReadonlyArray<readonly string[]>, depth: number): Promise<void> {
    if (this.stopped || this.seen.has(file)) return;
    if (this.files >= this.limits.maxFiles) return this.limit('files');
    if (expired(this.deadline)) return this.stop('time');
    this.seen.add(file);
    const read = await beforeDeadline(
      this.source.reader.readText(file, this.limits.maxBytesPerFile),
      this.deadline,
      undefined,
    );
    if (!read) {
      if (expired(this.deadline)) this.stop('time');
      return;
    }
    this.files++;
    await this.lineWalk(completeLines(read), read.truncated, within, depth);
  }

  private async lineWalk(
    lines: readonly string[],
    truncated: boolean,
    within: ReadonlyArray<readonly string[]>,
    depth: number,
  ): Promise<void> {
    if (truncated) this.limited.add('bytes');
    // Directives before any Host line apply to every host, which is what `within` alone already says.
    let block: OpenBlock | 'match' = { patterns: ['*'], within };
    for (const raw of lines) {
      if (this.stopped) break;
      if (++this.lines > this.limits.maxLines) {
        this.stop('lines');
        break;
      }
      const line = raw.length > this.limits.maxLineLength ? 'junk' : splitLine(raw);
      if (line === undefined) continue;
      if (line === 'junk') {
        // It may have been a Host line: what follows it is nobody's until the next one, as after a Match.
        this.close(block);
        block = 'match';
        continue;
      }
      switch (line.keyword) {
        case 'host':
          this.close(block);
          block = { patterns: line.args.slice(0, this.limits.maxPatterns).map((p) => p.toLowerCase()), within };
          break;
        case 'match':
          this.close(block);
          block = 'match';
          break;
        case 'hostname':
          if (block !== 'match' && block.hostName === undefined && line.args[0] !== undefined) {
            block.hostName = line.args[0];
          }
          break;
        case 'include':
          if (block === 'match') {
            this.skippedIncludes += line.args.length;
            break;
          }
          this.close(block);
          await this.include(line.args, block, depth);
          // After the included files, the including block goes on.
          block = { patterns: block.patterns, within: block.within };
          break;
      }
    }
    this.close(block);
  }

  private async include(args: readonly string[], block: OpenBlock, depth: number): Promise<void> {
    if (depth + 1 > this.limits.maxDepth) return this.limit('depth');
    const within = isEveryHost(block.patterns) ? block.within : [...block.within, block.patterns];
    for (const arg of args) {
      const target = includeTarget(arg, this.source.home);
      if (!target) {
        this.skippedIncludes++;
        continue;
      }
      for (const file of await this.expand(target)) {
        if (this.stopped) return;
        await this.file(file, within, depth + 1);
      }
    }
  }

  private async expand(target: IncludeTarget): Promise<string[]> {
    if (!('glob' in target)) return [target.file];
    if (expired(this.deadline)) {
      this.stop('time');
      return [];
    }
    const names = await beforeDeadline(
      this.source.reader.list(target.dir, this.limits.maxDirEntries),
      this.deadline,
      undefined,
    );
    if (!names) {
      if (expired(this.deadline)) this.stop('time');
      return [];
    }
    // glob(3) leaves out dot files unless the pattern asks for them, and sorts.
    return names
      .filter((name) => (name.startsWith('.') ? target.glob.startsWith('.') : true) && globMatch(name, target.glob))
      .sort()
      .slice(0, this.limits.maxFiles)
      .map((name) => path.join(target.dir, name));
  }

  private close(block: OpenBlock | 'match'): void {
    if (block === 'match') return;
    if (block.hostName === undefined && isEveryHost(block.patterns)) return;
    if (this.blocks.length >= this.limits.maxBlocks) return this.stop('blocks');
    this.blocks.push(
      block.hostName === undefined
        ? { patterns: block.patterns, within: block.within }
        : { patterns: block.patterns, within: block.within, hostName: block.hostName },
    );
  }

  private limit(which: SshConfigLimit): void {
    this.limited.add(which);
  }

  private stop(which: SshConfigLimit): void {
    this.limited.add(which);
    this.stopped = true;
  }
}

function isEveryHost(patterns: readonly string[]): boolean {
  return patterns.length === 1 && patterns[0] === '*';
}

type IncludeTarget = { readonly file: string } | { readonly dir: string; readonly glob: string };

/** Where an Include argument points, when it is plain enough to follow; undefined otherwise. */
export function includeTarget(arg: string, home: string): IncludeTarget | undefined {
  if (!arg || arg.length > 1_024 || /[%$?[\]`{}\\]/.test(arg)) return undefined;
  let full: string;
  if (arg.startsWith('~/')) full = path.join(home, arg.slice(2));
  else if (arg.startsWith('~')) return undefined;
  else if (path.isAbsolute(arg)) full = arg;
  else full = path.join(home, '.ssh', arg);
  full = path.resolve(full);
  const inside = path.relative(path.resolve(home), full);
  if (!inside || inside.startsWith('..') || path.isAbsolute(inside)) return undefined;
  const dir = path.dirname(full);
  const base = path.basename(full);
  if (dir.includes('*')) return undefined;
  return base.includes('*') ? { dir, glob: base } : { file: full };
}

interface ConfigLine {
  /** Lower case. */
  readonly keyword: string;
  readonly args: readonly string[];
}

/**
 * `Keyword args…` or `Keyword=args…`, double quotes kept together, `#` starting a comment; undefined for a blank or
 * comment line, `junk` for a line ssh would refuse (control characters, an unclosed quote).
 */
export function splitLine(line: string): ConfigLine | 'junk' | undefined {
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    // CR of a CRLF file is fine at the end; any other control character makes the line junk.
    if ((code < 0x20 && code !== 0x09 && !(code === 0x0d && i === line.length - 1)) || code === 0x7f) return 'junk';
  }
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  let i = skipSpace(text, 0);
  if (i >= text.length || text[i] === '#') return undefined;
  const start = i;
  while (i < text.length && !isSpace(text[i]) && text[i] !== '=') i++;
  const keyword = text.slice(start, i).toLowerCase();
  i = skipSpace(text, i);
  if (text[i] === '=') i = skipSpace(text, i + 1);
  const args: string[] = [];
  while (i < text.length && args.length < MAX_ARGS) {
    if (text[i] === '#') break;
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) return 'junk';
      args.push(text.slice(i + 1, end));
      i = end + 1;
    } else {
      const from = i;
      while (i < text.length && !isSpace(text[i])) i++;
      args.push(text.slice(from, i));
    }
    i = skipSpace(text, i);
  }
  return { keyword, args };
}

function isSpace(char: string | undefined): boolean {
  return char === ' ' || char === '\t';
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text[i])) i++;
  return i;
}

/**
 * Work left for pattern matching: each step is one character compared. A config of many long wildcard patterns
 * could otherwise cost text × pattern × patterns × hosts; past the budget nothing more matches.
 */
export class MatchBudget {
  constructor(public left: number) {}
  get spent(): boolean {
    return this.left <= 0;
  }
}

/** `*` and `?` as ssh and glob(3) read them; at worst text × pattern steps, each taken from the budget. */
export function globMatch(text: string, pattern: string, budget: MatchBudget = new MatchBudget(1_000_000)): boolean {
  let t = 0;
  let p = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (--budget.left < 0) return false;
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      t++;
      p++;
    } else if (p < pattern.length && pattern[p] === '*') {
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

/** A pattern list as a Host line reads it: some pattern matches and no negated one does. */
export function patternsMatch(patterns: readonly string[], host: string, budget?: MatchBudget): boolean {
  let matched = false;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) {
      if (globMatch(host, pattern.slice(1), budget)) return false;
    } else if (!matched && globMatch(host, pattern, budget)) {
      matched = true;
    }
  }
  return matched;
}

function applies(block: SshHostBlock, host: string, budget: MatchBudget): boolean {
  return (
    patternsMatch(block.patterns, host, budget) &&
    block.within.every((patterns) => patternsMatch(patterns, host, budget))
  );
}

/** Steps one alias may take to find its host: far above what any hand-written config needs. */
const STEPS_PER_ALIAS = 200_000;
/** Steps for every alias of a config together. */
const STEPS_PER_CONFIG = 5_000_000;

/**
 * The host ssh connects to for `alias` (lower case as ssh makes it), in `hostKey` form: the first HostName of the
 * blocks that apply, with `%h` and `%%` expanded, or the alias itself when none applies. Undefined when the HostName
 * holds another token or is no plain host, or the matching ran out of budget: where ssh goes is then not known here.
 */
export function effectiveHost(
  config: SshConfig,
  alias: string,
  budget: MatchBudget = new MatchBudget(STEPS_PER_ALIAS),
): string | undefined {
  return hostResolver(config, budget)(alias);
}

/**
 * `effectiveHost` for many aliases: blocks that name only exact hosts are looked up by name, and only the others
 * (wildcards, negations, conditional includes) are matched in turn, so a config of a thousand hosts costs a thousand
 * lookups rather than a million matches.
 */
function hostResolver(config: SshConfig, budget: MatchBudget): (alias: string) => string | undefined {
  const exact = new Map<string, number>();
  const general: number[] = [];
  config.blocks.forEach((block, index) => {
    if (block.hostName === undefined) return;
    if (block.within.length > 0 || !block.patterns.every(isPlainPattern)) general.push(index);
    else for (const pattern of block.patterns) if (!exact.has(pattern)) exact.set(pattern, index);
  });
  return (alias) => {
    const host = alias.toLowerCase();
    if (host.length > 253) return undefined;
    let chosen = exact.get(host);
    for (const index of general) {
      if (chosen !== undefined && index > chosen) break;
      const block = config.blocks[index];
      const hit = block !== undefined && applies(block, host, budget);
      if (budget.spent) return undefined;
      if (hit) {
        chosen = index;
        break;
      }
    }
    const hostName = chosen === undefined ? undefined : config.blocks[chosen]?.hostName;
    if (hostName === undefined) return hostKey(host);
    const expanded = expandHostName(hostName, host);
    return expanded === undefined ? undefined : hostKey(expanded);
  };
}

function isPlainPattern(pattern: string): boolean {
  return !pattern.startsWith('!') && !pattern.includes('*') && !pattern.includes('?');
}

function expandHostName(value: string, host: string): string | undefined {
  if (value.length > 1_024) return undefined;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (char !== '%') {
      out += char;
      continue;
    }
    const token = value[++i];
    if (token === 'h') out += host;
    else if (token === '%') out += '%';
    else return undefined;
  }
  return out;
}

/** A Host pattern that names one host: no wildcard, not negated, a plain host. */
function exactAlias(pattern: string): string | undefined {
  return isPlainPattern(pattern) ? hostKey(pattern) : undefined;
}

export interface SshConfigHost {
  /** The alias as written on a Host line, in `hostKey` form. */
  readonly alias: string;
  /** Where ssh goes for it, when that differs from the alias. */
  readonly hostName?: string;
}

/** Every host the config names exactly (each once, in order), with the host each stands for. */
export function configuredHosts(config: SshConfig, max = 1_000): SshConfigHost[] {
  const hosts: SshConfigHost[] = [];
  const seen = new Set<string>();
  const budget = new MatchBudget(STEPS_PER_CONFIG);
  const resolve = hostResolver(config, budget);
  for (const block of config.blocks) {
    for (const pattern of block.patterns) {
      const alias = exactAlias(pattern);
      if (alias === undefined || seen.has(alias)) continue;
      seen.add(alias);
      if (!block.within.every((p) => patternsMatch(p, alias, budget))) continue;
      const target = resolve(alias);
      if (budget.spent) return hosts;
      hosts.push(target !== undefined && target !== alias ? { alias, hostName: target } : { alias });
      if (hosts.length >= max) return hosts;
    }
  }
  return hosts;
}
