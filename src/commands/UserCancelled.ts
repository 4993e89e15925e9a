import * as vscode from 'vscode';
import { ApiError } from '../api/errors';

/** The user dismissed a prompt: nothing to report. */
export class UserCancelled extends Error {
  override readonly name = 'UserCancelled';
}

export function isCancellation(error: unknown): boolean {
  return (
    error instanceof UserCancelled ||
    error instanceof vscode.CancellationError ||
    (error instanceof ApiError && error.kind === 'cancelled')
  );
}
