import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { KeyStoreError } from '../auth/KeyStore';
import { type Log } from '../log';
import { ActionUnderWay } from '../store/errors';
import { noLinks } from '../views/text';
import { actionLabel, describeError, type ErrorAction, type ErrorReport } from './describeError';
import { keyStoreText } from './reasonText';

/** How a command's failures are told (the command table says it per command). */
export type FailureContext = 'action' | 'plain';

/** The sentence and the next steps for any failure: the API's, the key store's, an action refused as a duplicate. */
export function toReport(error: unknown, baseUrl: string, during: FailureContext = 'plain'): ErrorReport {
  if (error instanceof ApiError) return describeError(error, baseUrl, during === 'action' ? 'action' : undefined);
  if (error instanceof KeyStoreError) return { message: keyStoreText(error), actions: ['showLog'], severity: 'error' };
  if (error instanceof ActionUnderWay) {
    return { message: vscode.l10n.t('An action is already under way for this server.'), actions: [], severity: 'info' };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { message: vscode.l10n.t('Something went wrong: {0}', text), actions: ['showLog'], severity: 'error' };
}

/** Shows one notification and runs the chosen next step. `retry` re-runs what failed. */
export async function showReport(report: ErrorReport, retry?: () => unknown): Promise<void> {
  const actions = report.actions.filter((a) => a !== 'retry' || retry);
  const labels = actions.map(actionLabel);
  const show =
    report.severity === 'info'
      ? vscode.window.showInformationMessage
      : report.severity === 'warning'
        ? vscode.window.showWarningMessage
        : vscode.window.showErrorMessage;
  // Messages carry server text; notifications would turn `[x](command:…)` in it into a link.
  const picked = await show(noLinks(report.message), ...labels);
  const action = actions[labels.indexOf(picked ?? '')];
  if (action) await runErrorAction(action, retry);
}

async function runErrorAction(action: ErrorAction, retry?: () => unknown): Promise<void> {
  switch (action) {
    case 'retry':
      await retry?.();
      break;
    case 'setApiKey':
      await vscode.commands.executeCommand('hostingAccount.setApiKey');
      break;
    case 'openApiKeysPage':
      await vscode.commands.executeCommand('hostingAccount.openApiKeysPage');
      break;
    case 'showLog':
      await vscode.commands.executeCommand('hostingAccount.showLog');
      break;
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'hostingAccount.');
      break;
    case 'openNetworkSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'http.proxy');
      break;
    case 'refresh':
      await vscode.commands.executeCommand('hostingAccount.refresh');
      break;
  }
}

/** Logs a failure with what support needs (kind, status, request id), never the key: the log masks it. */
export function logFailure(log: Log, what: string, error: unknown): void {
  if (error instanceof ApiError) {
    const details = [
      error.kind,
      error.status && `HTTP ${error.status}`,
      error.code,
      error.requestId && `request id ${error.requestId}`,
    ]
      .filter(Boolean)
      .join(', ');
    log.error(`${what} failed (${details}): ${error.message}`);
  } else if (error instanceof Error) {
    log.error(`${what} failed: ${error.stack ?? error.message}`);
  } else {
    log.error(`${what} failed: ${String(error)}`);
  }
}
