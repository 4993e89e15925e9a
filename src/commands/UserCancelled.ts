import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { Declined } from '../store/errors';

export class UserCancelled extends Error {
  override readonly name = 'UserCancelled';
}

export function isCancellation(error: unknown): boolean {
  return (
    error instanceof UserCancelled ||
    error instanceof Declined ||
    error instanceof vscode.CancellationError ||
    (error instanceof ApiError && error.kind === 'cancelled')
  );
}
