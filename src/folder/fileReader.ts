/**
 * The only way the suggestion sources read files: a few bytes of a regular file, a directory's first names, what a path
 * is. Injected, so the parsers are tested on any text and a remote folder can be read through another file system.
 * Free of `vscode`.
 */
import { constants, promises as fs } from 'node:fs';

export type EntryKind = 'file' | 'directory';

export interface TextRead {
  readonly text: string;
  /** The file is longer than what was read: its last line may be cut in the middle. */
  readonly truncated: boolean;
}

export interface FileReader {
  /** At most `maxBytes` of a regular file as UTF-8; undefined when it is missing, not a regular file or unreadable. */
  readText(path: string, maxBytes: number): Promise<TextRead | undefined>;
  kind(path: string): Promise<EntryKind | undefined>;
  /** At most `maxEntries` names of a directory, in no particular order; undefined when it cannot be listed. */
  list(path: string, maxEntries: number): Promise<readonly string[] | undefined>;
}

/** Stops waiting for file work at a deadline; the work itself is bounded by the byte and entry caps. */
export interface Deadline {
  readonly now: () => number;
  readonly at: number;
}

export function deadlineIn(ms: number, now: () => number = Date.now): Deadline {
  return { now, at: now() + ms };
}

export function expired(deadline: Deadline): boolean {
  return deadline.now() >= deadline.at;
}

/** The work's result, or `fallback` once the deadline passes first (a hung network file system stops nothing else). */
export async function beforeDeadline<T>(work: Promise<T>, deadline: Deadline, fallback: T): Promise<T> {
  const left = deadline.at - deadline.now();
  if (left <= 0) return fallback;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), left);
    timer.unref?.();
  });
  try {
    return await Promise.race([work.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}

// Opening a FIFO for reading would wait for a writer; non-blocking, the open returns and fstat says it is no file.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export const nodeFileReader: FileReader = {
  async readText(path, maxBytes) {
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(path, OPEN_FLAGS);
      if (!(await handle.stat()).isFile()) return undefined;
      // One byte more than asked tells a file of exactly maxBytes from a longer one.
      const buffer = Buffer.alloc(maxBytes + 1);
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      const truncated = filled > maxBytes;
      return { text: buffer.subarray(0, Math.min(filled, maxBytes)).toString('utf8'), truncated };
    } catch {
      return undefined;
    } finally {
      await handle?.close().catch(() => undefined);
    }
  },

  async kind(path) {
    try {
      const stat = await fs.stat(path);
      return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : undefined;
    } catch {
      return undefined;
    }
  },

  async list(path, maxEntries) {
    try {
      const names: string[] = [];
      // Leaving the loop early closes the directory.
      for await (const entry of await fs.opendir(path)) {
        if (names.length >= maxEntries) break;
        names.push(entry.name);
      }
      return names;
    } catch {
      return undefined;
    }
  },
};

/** The complete lines of a read: a cut file's last line may be half a host name, so it is dropped. */
export function completeLines(read: TextRead): string[] {
  const lines = read.text.split('\n');
  if (read.truncated) lines.pop();
  return lines;
}
