import * as vscode from 'vscode';
import { ApiError } from '../api/errors';

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
