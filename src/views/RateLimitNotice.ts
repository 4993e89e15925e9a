import * as vscode from 'vscode';
import { type Store } from '../store/Store';
import { Disposable } from '../util/lifecycle';

/** Shorter waits pass before a notification could be read; the node's spinner covers them. */
const SHOW_AFTER_MS = 2_000;

/**
 * A request the user started that has to wait for the API's rate limit shows it: "Waiting for the API's rate limit,
 * 40 s", counting down, with Cancel. Background refreshes wait quietly.
 */
export class RateLimitNotice extends Disposable {
  private until = 0;
  private showing = false;

  constructor(private readonly store: Store) {
    super();
    this.register(store.onDidWaitForLimit(({ until }) => this.waiting(until)));
  }

  private waiting(until: number): void {
    this.until = Math.max(this.until, until);
    if (this.showing || this.until - Date.now() < SHOW_AFTER_MS) return;
    this.showing = true;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, cancellable: true, title: vscode.l10n.t('Hosting') },
      (progress, token) => new Promise<void>((resolve) => {
        const tick = (): void => {
          const left = Math.ceil((this.until - Date.now()) / 1000);
          if (left <= 0 || token.isCancellationRequested) {
            clearInterval(timer);
            this.showing = false;
            resolve();
            return;
          }
          progress.report({ message: vscode.l10n.t('Waiting for the API\'s rate limit, {0} s', left) });
        };
        const timer = setInterval(tick, 1_000);
        token.onCancellationRequested(() => {
          this.until = 0;
          this.store.cancelUserWaits();
          tick();
        });
        tick();
      }),
    );
  }
}
