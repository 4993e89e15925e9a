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

/** Only progress notifications can be withdrawn, and they take no buttons: the steps are links after the message. */
export function tellUntilWithdrawn(
  message: string,
  steps: ReadonlyArray<{ title: string; command: string; args: unknown[] }>,
  closed: () => void,
): () => void {
  let withdraw = (): void => undefined;
  const until = new Promise<void>((resolve) => (withdraw = resolve)).finally(closed);
  const links = steps.map(
    (s) => `[${s.title.replace(/[[\]]/g, '')}](command:${s.command}?${encodeURIComponent(JSON.stringify(s.args))})`,
  );
  // VS Code cuts a notification at 1,000 characters: the links must fit.
  const title = `${guardMessage(message, 600)} ${links.join(' · ')}`;
  const options = { location: vscode.ProgressLocation.Notification, title, cancellable: true };
  void vscode.window.withProgress(options, (_progress, token) => {
    token.onCancellationRequested(withdraw);
    return until;
  });
  return () => withdraw();
}
