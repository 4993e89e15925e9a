import * as vscode from 'vscode';
import { Disposable } from '../util/lifecycle';
import { type ReportingAccount } from './ProblemReporter';

/** Waits shorter than this pass before a notification could be read; the node's spinner covers them. */
const SHOW_WAIT_AFTER_MS = 2_000;

/** One notification, counting down with Cancel, however many of the user's requests wait; a later wait extends it. */
export class RateLimitNotice extends Disposable {
  private until = 0;
  private showing = false;

  constructor(private readonly account: ReportingAccount) {
    super();
    this.register(account.store.onDidWaitForLimit(({ until }) => this.wait(until)));
  }

  private wait(until: number): void {
    this.until = Math.max(this.until, until);
    if (this.showing || this.until - Date.now() < SHOW_WAIT_AFTER_MS) return;
    this.showing = true;
    const name = this.account.shownName();
    void vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        cancellable: true,
        title: name ? vscode.l10n.t('Hosting ({0})', name) : vscode.l10n.t('Hosting'),
      },
      (progress, token) =>
        new Promise<void>((resolve) => {
          const tick = (): void => {
            const left = Math.ceil((this.until - Date.now()) / 1000);
            if (left <= 0 || token.isCancellationRequested) {
              clearInterval(timer);
              this.showing = false;
              resolve();
              return;
            }
            progress.report({ message: vscode.l10n.t("Waiting for the API's rate limit, {0} s", left) });
          };
          const timer = setInterval(tick, 1_000);
          token.onCancellationRequested(() => {
            this.until = 0;
            this.account.store.cancelUserWaits();
            tick();
          });
          tick();
        }),
    );
  }
}
