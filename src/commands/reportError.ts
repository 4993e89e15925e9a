import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { noLinks } from '../views/text';
import { type Log } from '../log';
import { actionLabel, describeError, type ErrorAction, type ErrorReport } from './describeError';

/** The user dismissed a prompt: nothing to report. */
export class UserCancelled extends Error {
  override readonly name = 'UserCancelled';
}

export function isCancellation(error: unknown): boolean {
  return error instanceof UserCancelled || error instanceof vscode.CancellationError ||
    (isApiError(error) && error.kind === 'cancelled');
}

export function toReport(error: unknown, baseUrl: string, during?: 'action'): ErrorReport {
  if (isApiError(error)) return describeError(error, baseUrl, during);
  // By name: KeyStoreError is thrown in the activation bundle, and classes are not shared across bundles.
  if (error instanceof Error && error.name === 'KeyStoreError') return { message: error.message, actions: ['showLog'], severity: 'error' };
  const text = error instanceof Error ? error.message : String(error);
  return { message: vscode.l10n.t('Something went wrong: {0}', text), actions: ['showLog'], severity: 'error' };
}

/** Shows one notification and runs the chosen next step. `retry` re-runs what failed. */
export async function showReport(report: ErrorReport, retry?: () => unknown): Promise<void> {
  const actions = report.actions.filter((a) => a !== 'retry' || retry);
  const labels = actions.map(actionLabel);
  const show = report.severity === 'info' ? vscode.window.showInformationMessage
    : report.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  // Messages carry server text; notifications would turn `[x](command:…)` in it into a link.
  const picked = await show(noLinks(report.message), ...labels);
  const action = actions[labels.indexOf(picked ?? '')];
  if (action) await runErrorAction(action, retry);
}

export async function runErrorAction(action: ErrorAction, retry?: () => unknown): Promise<void> {
  switch (action) {
    case 'retry': await retry?.(); break;
    case 'setApiKey': await vscode.commands.executeCommand('hostingAccount.setApiKey'); break;
    case 'openApiKeysPage': await vscode.commands.executeCommand('hostingAccount.openApiKeysPage'); break;
    case 'showLog': await vscode.commands.executeCommand('hostingAccount.showLog'); break;
    case 'openSettings': await vscode.commands.executeCommand('workbench.action.openSettings', 'hostingAccount.'); break;
    case 'openNetworkSettings': await vscode.commands.executeCommand('workbench.action.openSettings', 'http.proxy'); break;
    case 'refresh': await vscode.commands.executeCommand('hostingAccount.refresh'); break;
  }
}

/** Logs a failure with what support needs (kind, status, request id), never the key: the log masks it. */
export function logFailure(log: Log, what: string, error: unknown): void {
  if (isApiError(error)) {
    const details = [error.kind, error.status && `HTTP ${error.status}`, error.code, error.requestId && `request id ${error.requestId}`]
      .filter(Boolean).join(', ');
    log.error(`${what} failed (${details}): ${error.message}`);
  } else if (error instanceof Error) {
    log.error(`${what} failed: ${error.stack ?? error.message}`);
  } else {
    log.error(`${what} failed: ${String(error)}`);
  }
}
