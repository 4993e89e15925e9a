import * as path from 'node:path';
import { type EntryKind, type FileReader } from '../../../src/folder/fileReader';

/**
 * A file system in memory for the suggestion sources: files by absolute path (directories are implied by them, or
 * listed in `dirs`), a record of what was read and how many bytes were asked for, and paths that never answer.
 */
export class MemoryFiles implements FileReader {
  readonly reads: Array<{ path: string; maxBytes: number }> = [];
  readonly listed: string[] = [];
  private readonly files = new Map<string, Buffer>();
  private readonly dirs = new Set<string>();
  private readonly hanging = new Set<string>();

  constructor(files: Readonly<Record<string, string | Buffer>> = {}, dirs: readonly string[] = []) {
    for (const [file, content] of Object.entries(files)) this.add(file, content);
    for (const dir of dirs) this.addDir(dir);
  }

  add(file: string, content: string | Buffer): this {
    const full = path.resolve(file);
    this.files.set(full, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    this.addDir(path.dirname(full));
    return this;
  }

  addDir(dir: string): this {
    let current = path.resolve(dir);
    while (!this.dirs.has(current)) {
      this.dirs.add(current);
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
    return this;
  }

  /** Reads and listings of this path never settle, as on a hung network file system. */
  hang(file: string): this {
    this.hanging.add(path.resolve(file));
    return this;
  }

  readText(file: string, maxBytes: number): Promise<{ text: string; truncated: boolean } | undefined> {
    const full = path.resolve(file);
    this.reads.push({ path: full, maxBytes });
    if (this.hanging.has(full)) return new Promise(() => undefined);
    const content = this.files.get(full);
    if (!content) return Promise.resolve(undefined);
    return Promise.resolve({
      text: content.subarray(0, maxBytes).toString('utf8'),
      truncated: content.length > maxBytes,
    });
  }

  kind(file: string): Promise<EntryKind | undefined> {
    const full = path.resolve(file);
    if (this.hanging.has(full)) return new Promise(() => undefined);
    return Promise.resolve(this.files.has(full) ? 'file' : this.dirs.has(full) ? 'directory' : undefined);
  }

  list(dir: string, maxEntries: number): Promise<readonly string[] | undefined> {
    const full = path.resolve(dir);
    this.listed.push(full);
    if (this.hanging.has(full)) return new Promise(() => undefined);
    if (!this.dirs.has(full)) return Promise.resolve(undefined);
    const names = new Set<string>();
    for (const entry of [...this.files.keys(), ...this.dirs]) {
      if (path.dirname(entry) === full && entry !== full) names.add(path.basename(entry));
    }
    return Promise.resolve([...names].slice(0, maxEntries));
  }
}
