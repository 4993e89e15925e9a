import * as vscode from 'vscode';
import { type Log } from '../log';
import { isCancellation, logFailure, showReport, toReport } from './reportError';

/**
 * The one wrapper every command goes through: a cancelled prompt is silent, any other failure is logged and shown
 * once, with the next step to take.
 */
export function registerCommand(
  id: string,
  handler: (...args: unknown[]) => unknown,
  log: Log,
  baseUrl: () => string,
): vscode.Disposable {
  const run = async (...args: unknown[]): Promise<void> => {
    try {
      await handler(...args);
    } catch (error) {
      if (isCancellation(error)) return;
      logFailure(log, id, error);
      const during = id.startsWith('hostingAccount.order.') && id !== 'hostingAccount.order.showDetails' ? 'action' : undefined;
      void showReport(toReport(error, baseUrl(), during), () => run(...args));
    }
  };
  return vscode.commands.registerCommand(id, run);
}
