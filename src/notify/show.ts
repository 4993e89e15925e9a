// A lint rule forbids `show*Message` elsewhere: whatever a message quotes, none of it becomes a link or an icon.
import * as vscode from 'vscode';
import { forMessage, guardMessage } from './inert';

export type Severity = 'info' | 'warning' | 'error';

/** `name`: the account's, when there are several. */
export function inAccount(name: string | undefined, message: string): string {
  return name ? vscode.l10n.t('Account {0}: {1}', forMessage(name, 60), message) : message;
}

export function tell(severity: Severity, message: string, ...buttons: string[]): Promise<string | undefined> {
  const show =
    severity === 'info'
      ? vscode.window.showInformationMessage
      : severity === 'warning'
        ? vscode.window.showWarningMessage
        : vscode.window.showErrorMessage;
  return Promise.resolve(show(guardMessage(message), ...buttons));
}

/** For what is hard to undo: Escape, Cancel and closing the dialog are no. */
export async function confirm(message: string, detail: string, button: string): Promise<boolean> {
  const answer = await vscode.window.showWarningMessage(
    guardMessage(message),
    { modal: true, detail: guardMessage(detail) },
    button,
  );
  return answer === button;
}

export async function ask(message: string, detail: string, ...buttons: string[]): Promise<string | undefined> {
  const answer = await vscode.window.showWarningMessage(
    guardMessage(message),
    { modal: true, detail: guardMessage(detail) },
    ...buttons,
  );
  return answer !== undefined && buttons.includes(answer) ? answer : undefined;
}
