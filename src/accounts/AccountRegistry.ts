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
import { SERVER_MARKS_KEY } from './ServerMarks';

/** How long a window waits, at most, for a list another window announced to reach its `globalState` (about 6 s). */
const ARRIVAL_WAITS_MS = [100, 200, 400, 800, 1_600, 3_200];

/**
 * The non-secret account list, in `globalState`: a workspace cannot change it (unlike settings, which a workspace
 * could shadow), and `setKeysForSync` lets Settings Sync carry it to the user's other machines. Keys are never synced,
 * so an account that arrives that way shows "no key on this machine" with a Set API Key action.
 *
 * Other windows: `globalState` is shared between the windows of a profile but tells no extension when another window
 * wrote it. So every write here also writes a small marker secret (the list's digest and a counter, nothing secret),
 * whose `secrets.onDidChange` does reach every window; a window that hears it reads the list again, and waits briefly
 * when the list it reads is not yet the one announced. Regaining focus reads it again too (Settings Sync writes no
 * marker). `onDidChange` fires only when the list read differs from the last one this window saw.
 */
export class AccountRegistry implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private seen: string;
  private counter = 0;
  private generation = 0;
  private disposed = false;

  constructor(
    private readonly memento: vscode.Memento & { setKeysForSync(keys: readonly string[]): void },
    private readonly secrets: vscode.SecretStorage,
  ) {
    memento.setKeysForSync([ACCOUNTS_STATE_KEY, SERVER_MARKS_KEY]);
    this.seen = digestOf(this.stored);
    this.subscriptions.push(
      secrets.onDidChange((event) => event.key === CHANGE_MARKER_SECRET && void this.followAnnouncement()),
      vscode.window.onDidChangeWindowState((state) => state.focused && this.reread()),
    );
  }

  get stored(): StoredAccounts {
    return readStoredAccounts(this.memento.get(ACCOUNTS_STATE_KEY));
  }

  async update(change: (stored: StoredAccounts) => StoredAccounts): Promise<void> {
    const next = change(this.stored);
    await this.memento.update(ACCOUNTS_STATE_KEY, next);
    this.reread();
    // After the list is written, so a window that hears the marker finds the list (or waits for it).
    await Promise.resolve(
      this.secrets.store(CHANGE_MARKER_SECRET, markerOf(readStoredAccounts(next), Date.now() + ++this.counter)),
    ).catch(() => {
      // Secret storage unavailable: the other windows still follow when they regain focus.
    });
  }

  /** Reads the list again; tells the listeners when it is not the one this window last saw. */
  reread(): void {
    if (this.disposed) return;
    const digest = digestOf(this.stored);
    if (digest === this.seen) return;
    this.seen = digest;
    this.emitter.fire();
  }

  /** Another window (or this one) announced a list: read it, waiting a bounded while for it to arrive here. */
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

  dispose(): void {
    this.disposed = true;
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.emitter.dispose();
  }
}
