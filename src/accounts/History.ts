import { promises as fs } from 'node:fs';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { type ApiError } from '../api/errors';
import { ORDER_ACTIONS, type OrderAction } from '../api/models';
import {
  EDITED_FIELDS,
  type EditedField,
  type OutsideChange,
  OutsideChangeDetector,
  type OutsideChangeKind,
  OWN_ACTION_GRACE_MS,
} from '../store/outsideChanges';
import { type Store } from '../store/Store';
import { ACTION_SOURCES, type ActionSource } from '../store/types';
import { Emitter } from '../util/Emitter';
import { Disposable, type IDisposable } from '../util/lifecycle';
import { type ServerText } from '../util/serverText';

/** Its texts are server text (or our words), cut to 80. */
export interface HistoryEvent {
  readonly at: number;
  readonly id: string;
  readonly kind: 'sent' | 'settled' | OutsideChangeKind;
  readonly name?: ServerText;
  readonly action?: OrderAction;
  readonly source?: ActionSource;
  readonly error?: string;
  /** From acceptance to the settled state. */
  readonly ms?: number;
  readonly since?: number;
  readonly field?: EditedField;
  readonly from?: string;
  readonly to?: string;
}

/** Per room: the user's actions (sent, settled) and the changes seen each keep their own last 500. */
export const MAX_EVENTS = 500;
const MAX_KEPT = 2 * MAX_EVENTS;
export const MAX_AGE_MS = 90 * 86_400_000;
/** Only the file's tail is read; a longer line is damage. */
const MAX_READ = 1 << 20;
const MAX_LINE = 2_000;
const MAX_TEXT = 80;
/** Lines per write: each write stays whole beside another window's. */
const BATCH = 100;

const ENUMS: Readonly<Record<string, readonly string[]>> = {
  kind: ['sent', 'settled', 'stopped', 'suspended', 'running', 'disappeared', 'appeared', 'edited'],
  action: ORDER_ACTIONS,
  source: ACTION_SOURCES,
  field: EDITED_FIELDS,
};
const TEXTS = ['id', 'name', 'error', 'from', 'to'];
const TIMES = ['at', 'ms', 'since'];
const FIELDS = [...Object.keys(ENUMS), ...TEXTS, ...TIMES];

/**
 * Journals the store's actions and the changes no action explains, then tells those to `seen`. The windows of this
 * machine share the file: a change that another window's action explains is the user's own, recorded there once.
 */
export function journal(
  store: Store,
  history: History,
  reason: (error: ApiError) => string,
  seen: (changes: readonly OutsideChange[]) => void,
): IDisposable[] {
  const now = (): number => store.clock.now();
  const detector = new OutsideChangeDetector(store, now);
  const check = (): void => {
    const found = detector.check();
    if (!found.length) return;
    void history.read().then((events) => {
      const spans = actionSpans(events);
      const changes = found.filter(({ id, kind, at, since = at }) => {
        const span = spans.get(id);
        return span?.aim !== kind || span.from > at || span.to < since;
      });
      if (!changes.length) return;
      history.append(changes.map(({ label, ...change }) => ({ ...change, name: label })));
      seen(changes);
    });
  };
  return [
    store.onDidChangeOrders(check),
    store.onDidChangeState(check),
    store.onDidChangeData((kind) => kind === 'orders' && check()),
    store.onDidSend(({ label, error, ...sent }) =>
      history.append([{ ...sent, at: now(), kind: 'sent', name: label, error: error && reason(error) }]),
    ),
    store.onDidSettle(({ order, action, source, ms }) =>
      history.append([
        { at: now(), id: order.id, kind: 'settled', name: order.label, action, source, ms, to: order.state },
      ]),
    ),
  ];
}

const AIMS: Readonly<Record<OrderAction, OutsideChangeKind>> = {
  start: 'running',
  restart: 'running',
  reinstall: 'running',
  stop: 'stopped',
};
/**
 * Per order, its last action the server accepted (in any window): the state it aimed at, when it was accepted, and
 * until when a read begun could still show the state before (its settling, else a grace for a provider slow to show
 * it). A change is the action's when this window last saw the state before no later than that.
 */
function actionSpans(events: readonly HistoryEvent[]): Map<string, { aim: string; from: number; to: number }> {
  const spans = new Map<string, { aim: string; from: number; to: number }>();
  for (const { kind, id, at, error, action } of events) {
    const span = spans.get(id);
    if (kind === 'settled' && span) span.to = at;
    if (kind !== 'sent' || !action || error) continue;
    spans.set(id, { aim: AIMS[action], from: at, to: at + OWN_ACTION_GRACE_MS });
  }
  return spans;
}

/** Whole lines appended (O_APPEND) so windows keep each other's; compacted past twice the bounds. */
export class History extends Disposable {
  private readonly onDidAppendEmitter = this.register(new Emitter<void>());
  readonly onDidAppend = this.onDidAppendEmitter.event;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly pending: HistoryEvent[] = [];
  private lines = 0;
  private cache?: HistoryEvent[];
  private removed = false;
  /** Lines of the last read that were no event (damage, another version's). */
  skipped = 0;

  constructor(
    readonly file: string | undefined,
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
  ) {
    super();
  }

  append(events: readonly HistoryEvent[]): void {
    if (!events.length || this.removed || !this.file) return;
    const idle = !this.pending.length;
    this.pending.push(...events.map(bounded));
    if (!idle) return;
    if (!this.cache) void this.read();
    void this.run(async (file) => {
      try {
        await fs.mkdir(path.dirname(file), { recursive: true });
        while (this.pending.length) {
          const batch = this.pending.splice(0, BATCH);
          await appendWhole(file, batch.map(line).join(''));
          const cache = (this.cache ??= []);
          cache.push(...batch);
          if (cache.length > 2 * MAX_KEPT) this.cache = keep(cache, this.now());
          this.lines += batch.length;
        }
      } finally {
        // After a failure (reported), the next event starts a write again.
        this.pending.length = 0;
      }
      if (this.lines > 2 * MAX_KEPT) await this.compact(file);
      this.onDidAppendEmitter.fire();
    }, undefined);
  }

  /** Read again: other windows append too. */
  read(): Promise<HistoryEvent[]> {
    return this.run(async (file) => {
      const { events, lines, skipped } = parse(await tail(file), this.now());
      this.cache = events;
      this.lines = lines;
      if (skipped && skipped !== this.skipped) this.onError(new Error(`${skipped} unreadable lines skipped`));
      this.skipped = skipped;
      if (lines > events.length + MAX_EVENTS / 10) await this.compact(file);
      return events;
    }, []);
  }

  last(id: string): HistoryEvent | undefined {
    if (!this.cache) void this.read();
    return this.cache?.filter((event) => event.id === id).at(-1);
  }

  remove(): Promise<void> {
    this.removed = true;
    this.cache = [];
    return this.run((file) => fs.rm(file, { force: true }), undefined);
  }

  /**
   * One window compacts at a time (a lock directory; a busy one is skipped, it is not urgent). Lines appended to
   * the old file meanwhile are read through the handle; a window whose append landed after that appends it again.
   */
  private async compact(file: string): Promise<void> {
    const lock = `${file}.lock`;
    if (!(await takeLock(lock))) return;
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(file, 'r');
      const { size } = await handle.stat();
      const { events } = parse(await lastPart(handle, size), this.now());
      const temp = `${file}.${randomUUID()}.tmp`;
      try {
        await fs.writeFile(temp, events.map(line).join(''), { mode: 0o600 });
        await fs.rename(temp, file);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
      const late = await readRange(handle, size, (await handle.stat()).size);
      if (late) await fs.appendFile(file, late);
      const added = parse(late, this.now());
      this.lines = events.length + added.lines;
      this.cache = keep([...events, ...added.events], this.now());
    } finally {
      await handle?.close();
      await fs.rm(lock, { recursive: true, force: true });
    }
  }

  private run<T>(work: (file: string) => Promise<T>, fallback: T): Promise<T> {
    const { file } = this;
    const next = this.queue
      .then(() => (file ? work(file) : fallback))
      .catch((error: unknown) => {
        this.onError(error);
        return fallback;
      });
    this.queue = next;
    return next;
  }
}

/** Appends, and again if the file was replaced (compacted) between the open and the write. */
async function appendWhole(file: string, text: string): Promise<void> {
  const handle = await fs.open(file, 'a', 0o600);
  try {
    await handle.write(text);
    const [written, current] = await Promise.all([handle.stat({ bigint: true }), fs.stat(file, { bigint: true })]);
    if (written.ino !== current.ino || written.dev !== current.dev) await fs.appendFile(file, text);
  } catch (error) {
    // Removed meanwhile (the account was removed in another window): nothing to keep.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    await handle.close();
  }
}

/** A lock left by a window that died mid-compaction is cleared after a minute. */
async function takeLock(lock: string): Promise<boolean> {
  try {
    await fs.mkdir(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Gone meanwhile: the other window finished.
    const { mtimeMs } = (await fs.stat(lock).catch(() => undefined)) ?? { mtimeMs: Date.now() };
    if (Date.now() - mtimeMs > 60_000) await fs.rm(lock, { recursive: true, force: true });
    return false;
  }
}

function line(event: HistoryEvent): string {
  return `${JSON.stringify(event)}\n`;
}

async function tail(file: string): Promise<string> {
  const handle = await fs.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return '';
  try {
    return await lastPart(handle, (await handle.stat()).size);
  } finally {
    await handle.close();
  }
}

/** `piece`: it starts mid-line, and that piece is left out. */
async function readRange(handle: fs.FileHandle, start: number, end: number, piece = false): Promise<string> {
  if (end <= start) return '';
  const buffer = Buffer.alloc(end - start);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
  const text = buffer.toString('utf8', 0, bytesRead);
  return piece ? text.slice(text.indexOf('\n') + 1) : text;
}

function lastPart(handle: fs.FileHandle, size: number): Promise<string> {
  const start = Math.max(0, size - MAX_READ);
  return readRange(handle, start, size, start > 0);
}

export function parse(text: string, now: number): { events: HistoryEvent[]; lines: number; skipped: number } {
  const lines = text.split('\n').filter((line) => line.length);
  // A line appended twice (see appendWhole) is one event.
  const unique = [...new Set(lines)];
  const events = unique.flatMap((line) => {
    const event = line.length <= MAX_LINE ? readEvent(line) : undefined;
    return event ? [event] : [];
  });
  return { events: keep(events, now), lines: lines.length, skipped: unique.length - events.length };
}

/** In the order appended, not by time: events stamped by a clock once a year ahead cannot keep newer ones out. */
function keep(events: readonly HistoryEvent[], now: number): HistoryEvent[] {
  const left = { action: MAX_EVENTS, seen: MAX_EVENTS };
  const room = (event: HistoryEvent): keyof typeof left =>
    event.kind === 'sent' || event.kind === 'settled' ? 'action' : 'seen';
  return events
    .filter((event) => now - event.at <= MAX_AGE_MS)
    .reverse()
    .filter((event) => left[room(event)]-- > 0)
    .reverse();
}

function readEvent(line: string): HistoryEvent | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const event: Record<string, unknown> = {};
  // Only our fields, and only the line's own: a member named `constructor` or `__proto__` is looked up nowhere.
  for (const key of FIELDS) {
    const value: unknown = Object.hasOwn(raw, key) ? (raw as Record<string, unknown>)[key] : undefined;
    const fits =
      (ENUMS[key]?.includes(value as string) ?? false) ||
      (TEXTS.includes(key) && typeof value === 'string' && value.length <= (key === 'id' ? 256 : MAX_TEXT * 2)) ||
      (TIMES.includes(key) && Number.isSafeInteger(value));
    if (fits) event[key] = value;
  }
  const { at, id, kind } = event;
  return typeof at === 'number' && typeof id === 'string' && kind ? (event as unknown as HistoryEvent) : undefined;
}

function bounded(event: HistoryEvent): HistoryEvent {
  const cut: Record<string, unknown> = { ...event };
  for (const key of TEXTS) {
    const value = cut[key];
    if (key !== 'id' && typeof value === 'string') cut[key] = [...value].slice(0, MAX_TEXT).join('');
  }
  return cut as unknown as HistoryEvent;
}
