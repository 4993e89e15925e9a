import type * as vscode from 'vscode';
import { type Order } from '../api/models';
import { type Slot } from '../store/types';
import { clean } from '../util/cleanText';
import { Emitter } from '../util/Emitter';

/** One key for every account (by account id, then order id), so Settings Sync carries it as it carries the list. */
export const SERVER_MARKS_KEY = 'hostingAccount.serverMarks';
export const MAX_LABEL = 40;
/** Per account: a new mark past it is refused, never kept unread; marks of servers gone a while make room. */
export const MAX_MARKS = 2_000;
/** Missing from every complete list read this long, a server is gone, and so is its mark. */
export const GONE_MS = 30 * 86_400_000;

export interface ServerMark {
  readonly protected?: true;
  readonly pinned?: true;
  readonly label?: string;
  /** When a complete list read first missed the server; the previous version reads past it. */
  readonly gone?: number;
}

/** Each entry of an answer (by identity) and the id one way of reading (a field map, a profile) gives it. */
export type IdReading = (answer: unknown) => ReadonlyMap<unknown, string>;
/** Old id → new id (none: the new reading finds no id in that server's entry). */
export type IdPairs = ReadonlyMap<string, string | undefined>;

// Ids are the server's: a Map, never an object's keys (`__proto__`); written by `Object.fromEntries`, which keeps one.
export class ServerMarks {
  private readonly emitter = new Emitter<void>();
  readonly onDidChange = this.emitter.event;
  private read?: { raw: unknown; marks: ReadonlyMap<string, ServerMark> };

  constructor(
    private readonly memento: vscode.Memento,
    private readonly accountId: string,
  ) {}

  of(id: string): ServerMark {
    return this.all().get(id) ?? {};
  }

  isProtected(id: string): boolean {
    return this.of(id).protected === true;
  }

  get anyPinned(): boolean {
    return [...this.all().values()].some((mark) => mark.pinned);
  }

  /** False, and nothing kept, for a new mark past the bound: it could not be read back. */
  async set(id: string, change: { protected?: boolean; pinned?: boolean; label?: string }): Promise<boolean> {
    const marks = new Map(this.all());
    const next = parseMark({ ...marks.get(id), ...change, gone: undefined });
    if (!Object.keys(next).length) marks.delete(id);
    else if (marks.has(id) || marks.size < MAX_MARKS) marks.set(id, next);
    else return false;
    await this.write(marks);
    return true;
  }

  /** Marks of servers gone a while go; only a complete read says so, never a failed, cut or partial one. */
  async seen({ value, error, coverage: c }: Slot<readonly Order[]>, now: number): Promise<void> {
    if (!value || error || c?.stoppedBy || (c?.total ?? 0) > (c?.shown ?? 0)) return;
    const ids = new Set(value.map((order) => order.id));
    const marks = new Map(this.all());
    for (const [id, { gone, ...mark }] of this.all()) {
      if (ids.has(id)) marks.set(id, mark);
      else if (gone === undefined || gone > now) marks.set(id, { ...mark, gone: now });
      else if (now - gone >= GONE_MS) marks.delete(id);
    }
    const text = (each: ReadonlyMap<string, ServerMark>): string => JSON.stringify([...each]);
    if (text(marks) !== text(this.all())) await this.write(marks);
  }

  /** The marked ids `pairs` cannot carry: when it changes ids (or knows none), every mark it does not move. */
  lostBy(pairs: IdPairs): string[] {
    const changes = !pairs.size || [...pairs].some(([from, to]) => from !== to);
    return [...this.all().keys()].filter((id) => pairs.get(id) === undefined && (changes || pairs.has(id)));
  }

  /** A moved server was in the last answer: whatever read missed it under its old id, it is not gone. */
  async move(pairs: IdPairs): Promise<void> {
    const marks = this.all();
    const kept = [...marks].filter(([id]) => [undefined, id].includes(pairs.get(id)));
    const moved = [...pairs].flatMap(([from, to]) =>
      to !== from && to && marks.has(from) ? [[to, { ...this.of(from), gone: undefined }] as const] : [],
    );
    if (moved.length) await this.write(new Map([...kept, ...moved]));
  }

  dispose(): void {
    this.emitter.dispose();
  }

  private async write(marks: ReadonlyMap<string, ServerMark>): Promise<void> {
    const stored = this.memento.get<object>(SERVER_MARKS_KEY);
    const others = typeof stored === 'object' && stored !== null ? stored : {};
    await this.memento.update(SERVER_MARKS_KEY, { ...others, [this.accountId]: Object.fromEntries(marks) });
    this.emitter.fire();
  }

  private all(): ReadonlyMap<string, ServerMark> {
    const stored = this.memento.get<Record<string, unknown>>(SERVER_MARKS_KEY);
    const raw = typeof stored === 'object' && stored !== null ? stored[this.accountId] : undefined;
    if (!this.read || this.read.raw !== raw) this.read = { raw, marks: parseMarks(raw) };
    return this.read.marks;
  }
}

/** Old id → new id of each server of `answer` that the old reading finds, matched by its entry. */
export function idPairs(before: IdReading, after: IdReading, answer: unknown): IdPairs {
  const next = after(answer);
  return new Map([...before(answer)].map(([entry, from]) => [from, next.get(entry)]));
}

function parseMarks(raw: unknown): ReadonlyMap<string, ServerMark> {
  const marks = new Map<string, ServerMark>();
  if (typeof raw !== 'object' || raw === null) return marks;
  // Twice the bound: a few made in another window or machine meanwhile are still read.
  for (const [id, value] of Object.entries(raw).slice(0, MAX_MARKS * 2)) {
    const mark = parseMark(value);
    if (id.length <= 200 && Object.keys(mark).length) marks.set(id, mark);
  }
  return marks;
}

function parseMark(value: unknown): ServerMark {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const label = typeof v.label === 'string' ? clean(v.label, MAX_LABEL) : '';
  const mark: ServerMark = {
    ...(v.protected === true ? { protected: true } : {}),
    ...(v.pinned === true ? { pinned: true } : {}),
    ...(label ? { label } : {}),
  };
  const kept = Object.keys(mark).length && typeof v.gone === 'number' && Number.isFinite(v.gone);
  return kept ? { ...mark, gone: v.gone as number } : mark;
}
