import * as vscode from 'vscode';

/** Waits shorter than this pass before a notification could be read; the node's spinner covers them. */
const SHOW_WAIT_AFTER_MS = 2_000;

let until = 0;
let showing = false;

/**
 * A request the user started has to wait for the API's rate limit: "Waiting for the API's rate limit, 40 s",
 * counting down, with Cancel. One notification however many requests wait; a later wait extends it.
 */
export function showRateLimitWait(waitUntil: number, cancel: () => void): void {
  until = Math.max(until, waitUntil);
  if (showing || until - Date.now() < SHOW_WAIT_AFTER_MS) return;
  showing = true;
  void vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, cancellable: true, title: vscode.l10n.t('Hosting') },
    (progress, token) =>
      new Promise<void>((resolve) => {
        const tick = (): void => {
          const left = Math.ceil((until - Date.now()) / 1000);
          if (left <= 0 || token.isCancellationRequested) {
            clearInterval(timer);
            showing = false;
            resolve();
            return;
          }
          progress.report({ message: vscode.l10n.t("Waiting for the API's rate limit, {0} s", left) });
        };
        const timer = setInterval(tick, 1_000);
        token.onCancellationRequested(() => {
          until = 0;
          cancel();
          tick();
        });
        tick();
      }),
  );
}
