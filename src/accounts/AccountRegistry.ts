import * as vscode from 'vscode';
import {
  ACCOUNTS_STATE_KEY,
  announcedDigest,
  CHANGE_MARKER_SECRET,
  digestOf,
  markerOf,
  readStoredAccounts,
  type StoredAccounts,
} from './accountList';
import { Disposable } from '../util/lifecycle';
import { SERVER_MARKS_KEY } from './ServerMarks';

/** About 6 s in all. */
const ARRIVAL_WAITS_MS = [100, 200, 400, 800, 1_600, 3_200];

// In `globalState`, not settings: a workspace cannot shadow it. Other windows hear of a write through a marker secret
// (see CHANGE_MARKER_SECRET); Settings Sync writes no marker, so regaining focus reads the list again too.
export class AccountRegistry extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;
  private seen: string;
  private counter = 0;
  private generation = 0;

  constructor(
    private readonly memento: vscode.Memento & { setKeysForSync(keys: readonly string[]): void },
    private readonly secrets: vscode.SecretStorage,
  ) {
    super();
    memento.setKeysForSync([ACCOUNTS_STATE_KEY, SERVER_MARKS_KEY]);
    this.seen = digestOf(this.stored);
    this.register(secrets.onDidChange((event) => event.key === CHANGE_MARKER_SECRET && void this.followAnnouncement()));
    this.register(vscode.window.onDidChangeWindowState((state) => state.focused && this.reread()));
  }

  get stored(): StoredAccounts {
    return readStoredAccounts(this.memento.get(ACCOUNTS_STATE_KEY));
  }

  async update(change: (stored: StoredAccounts) => StoredAccounts): Promise<void> {
    const next = change(this.stored);
    await this.memento.update(ACCOUNTS_STATE_KEY, next);
    this.reread();
    // After the list: a window that hears the marker must find it.
    await Promise.resolve(
      this.secrets.store(CHANGE_MARKER_SECRET, markerOf(readStoredAccounts(next), Date.now() + ++this.counter)),
    ).catch(() => {
      // Secret storage unavailable: the other windows still follow when they regain focus.
    });
  }

  reread(): void {
    if (this.disposed) return;
    const digest = digestOf(this.stored);
    if (digest === this.seen) return;
    this.seen = digest;
    this.emitter.fire();
  }

  /** The announced list may not have reached this window's `globalState` yet. */
  private async followAnnouncement(): Promise<void> {
    const generation = ++this.generation;
    const wanted = announcedDigest(
      await Promise.resolve(this.secrets.get(CHANGE_MARKER_SECRET)).catch(() => undefined),
    );
    for (const wait of [0, ...ARRIVAL_WAITS_MS]) {
      if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
      // A newer announcement took over, or the window closed.
      if (this.disposed || generation !== this.generation) return;
      this.reread();
      if (!wanted || this.seen === wanted) return;
    }
  }
}
