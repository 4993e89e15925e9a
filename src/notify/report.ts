import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { KeyStoreError } from '../auth/KeyStore';
import { type Log } from '../log';
import { ActionUnderWay } from '../store/errors';
import { actionLabel, describeError, type ErrorAction, type ErrorReport } from './describeError';
import { keyStoreText } from './reasonText';
import { forLog, forMessage } from './inert';
import { inAccount, tell } from './show';

export type FailureContext = 'action' | 'plain';

export function toReport(error: unknown, baseUrl: string, during: FailureContext = 'plain'): ErrorReport {
  if (error instanceof ApiError) return describeError(error, baseUrl, during === 'action' ? 'action' : undefined);
  if (error instanceof KeyStoreError) return { message: keyStoreText(error), actions: ['showLog'], severity: 'error' };
  if (error instanceof ActionUnderWay) {
    return { message: vscode.l10n.t('An action is already under way for this server.'), actions: [], severity: 'info' };
  }
  const text = error instanceof Error ? error.message : String(error);
  return {
    message: vscode.l10n.t('Something went wrong: {0}', forMessage(text)),
    actions: ['showLog'],
    severity: 'error',
  };
}

export interface ReportTarget {
  /** The command argument that names the account the next steps act in. */
  readonly account?: unknown;
  /** With several accounts, the account's name. */
  readonly name?: string;
  readonly retry?: () => unknown;
}

export async function showReport(report: ErrorReport, target: ReportTarget = {}): Promise<void> {
  const actions = report.actions.filter((a) => a !== 'retry' || target.retry);
  const labels = actions.map(actionLabel);
  const message = inAccount(target.name, report.message);
  const picked = await tell(report.severity, message, ...labels);
  const action = actions[labels.indexOf(picked ?? '')];
  if (action) await runErrorAction(action, target);
}

async function runErrorAction(action: ErrorAction, { account, retry }: ReportTarget): Promise<void> {
  if (action === 'retry') {
    await retry?.();
    return;
  }
  const [command, ...args] = (
    {
      setApiKey: ['hostingAccount.setApiKey', account],
      openApiKeysPage: ['hostingAccount.openApiKeysPage', account],
      showLog: ['hostingAccount.showLog'],
      openSettings: ['workbench.action.openSettings', 'hostingAccount.'],
      openNetworkSettings: ['workbench.action.openSettings', 'http.proxy'],
      refresh: ['hostingAccount.refresh', account],
    } as const
  )[action];
  await vscode.commands.executeCommand(command, ...args);
}

/** What support needs (kind, status, request id); never the key: the log masks it. */
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
    log.error(`${what} failed (${forLog(details)}): ${forLog(error.message, 1_000)}`);
  } else if (error instanceof Error) {
    log.error(`${what} failed: ${forLog(error.message, 1_000)}`);
    // The stack is ours; only its first line (the message) can carry server text.
    if (error.stack) log.debug(error.stack.slice(error.stack.indexOf('\n') + 1, 4_000));
  } else {
    log.error(`${what} failed: ${forLog(String(error), 1_000)}`);
  }
}
