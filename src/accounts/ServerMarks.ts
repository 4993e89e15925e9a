import type * as vscode from 'vscode';
import { clean } from '../util/cleanText';
import { Emitter } from '../util/Emitter';

/** One key for every account (by account id, then order id), so Settings Sync carries it as it carries the list. */
export const SERVER_MARKS_KEY = 'hostingAccount.serverMarks';
export const MAX_LABEL = 40;
const MAX_MARKS = 2_000;

export interface ServerMark {
  readonly protected?: true;
  readonly pinned?: true;
  readonly label?: string;
}

type Marks = Readonly<Record<string, ServerMark>>;

/** Read back bounded: it comes from sync too. */
export class ServerMarks {
  private readonly emitter = new Emitter<void>();
  readonly onDidChange = this.emitter.event;
  private read?: { raw: unknown; marks: Marks };

  constructor(
    private readonly memento: vscode.Memento,
    private readonly accountId: string,
  ) {}

  of(id: string): ServerMark {
    return this.all()[id] ?? {};
  }

  isProtected(id: string): boolean {
    return this.of(id).protected === true;
  }

  get anyPinned(): boolean {
    return Object.values(this.all()).some((mark) => mark.pinned);
  }

  async set(id: string, change: { protected?: boolean; pinned?: boolean; label?: string }): Promise<void> {
    const stored = this.memento.get<Record<string, unknown>>(SERVER_MARKS_KEY);
    const mine: Record<string, ServerMark> = { ...this.all() };
    const next = parseMark({ ...mine[id], ...change });
    if (Object.keys(next).length) mine[id] = next;
    else delete mine[id];
    const others = typeof stored === 'object' && stored !== null ? stored : {};
    await this.memento.update(SERVER_MARKS_KEY, { ...others, [this.accountId]: mine });
    this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }

  private all(): Marks {
    const stored = this.memento.get<Record<string, unknown>>(SERVER_MARKS_KEY);
    const raw = typeof stored === 'object' && stored !== null ? stored[this.accountId] : undefined;
    if (!this.read || this.read.raw !== raw) this.read = { raw, marks: parseMarks(raw) };
    return this.read.marks;
  }
}

function parseMarks(raw: unknown): Marks {
  if (typeof raw !== 'object' || raw === null) return {};
  const marks: Record<string, ServerMark> = {};
  for (const [id, value] of Object.entries(raw).slice(0, MAX_MARKS)) {
    const mark = parseMark(value);
    if (id.length <= 200 && Object.keys(mark).length) marks[id] = mark;
  }
  return marks;
}

function parseMark(value: unknown): ServerMark {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const label = typeof v.label === 'string' ? clean(v.label, MAX_LABEL) : '';
  return {
    ...(v.protected === true ? { protected: true } : {}),
    ...(v.pinned === true ? { pinned: true } : {}),
    ...(label ? { label } : {}),
  };
}
