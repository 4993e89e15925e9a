import { ApiError } from '../api/errors';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';
import { type Session } from './Session';
import { type Failure, type RefreshReason, type StoreLog } from './types';

export class Failures extends Disposable {
  private readonly failing = new Set<Failure['kind']>();
  private rejected?: ApiError;
  private readonly onDidFailEmitter = this.register(new Emitter<Failure>());
  readonly onDidFail = this.onDidFailEmitter.event;
  private readonly onDidRejectKeyEmitter = this.register(new Emitter<ApiError>());
  readonly onDidRejectKey = this.onDidRejectKeyEmitter.event;

  constructor(
    private readonly session: Session,
    private readonly log?: StoreLog,
  ) {
    super();
  }

  get keyRejected(): boolean {
    return this.rejected !== undefined;
  }

  record(kind: Failure['kind'], caught: unknown, reason: RefreshReason, generation: number): ApiError {
    const error = caught instanceof ApiError ? caught : new ApiError('badResponse', String(caught), { cause: caught });
    if (!this.session.isCurrent(generation) || error.kind === 'cancelled') return error;
    const keyProblem = error.kind === 'unauthorized' || error.kind === 'keyUnsendable';
    this.log?.[keyProblem || error.kind === 'noKey' ? 'warn' : 'error'](
      `${kind} failed: ${error.kind}: ${error.message}${error.requestId ? ` (request id ${error.requestId})` : ''}`,
    );
    const firstInEpisode = this.failing.size === 0;
    if (kind !== 'action' && kind !== 'details') this.failing.add(kind);
    // No key at all is no rejection: nothing was sent.
    if (keyProblem) {
      this.rejected = error;
      this.onDidRejectKeyEmitter.fire(error);
    }
    this.onDidFailEmitter.fire({ kind, error, userInitiated: reason === 'user', firstInEpisode });
    return error;
  }

  succeeded(kind: Failure['kind']): void {
    this.failing.delete(kind);
    this.rejected = undefined;
  }

  clear(): void {
    this.failing.clear();
    this.rejected = undefined;
  }
}
