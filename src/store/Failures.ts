import { ApiError } from '../api/errors';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';
import { type Session } from './Session';
import { type Failure, type RefreshReason, type StoreLog } from './types';

/**
 * Failures as the user hears of them: each is logged and announced, and repeats of one outage are marked so that
 * background refreshes cannot stack up notifications. A rejected key is remembered until a request succeeds.
 */
export class Failures extends Disposable {
  private readonly failing = new Set<Failure['kind']>();
  private rejected?: ApiError;
  private readonly onDidFailEmitter = this.register(new Emitter<Failure>());
  readonly onDidFail = this.onDidFailEmitter.event;
  private readonly onDidRejectKeyEmitter = this.register(new Emitter<ApiError>());
  /** The server rejected the key: no request with it can succeed until the user acts. */
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

  /** Records a failure of a request stamped with `generation`; returns it as an ApiError for the caller to throw. */
  record(kind: Failure['kind'], caught: unknown, reason: RefreshReason, generation: number): ApiError {
    const error = caught instanceof ApiError ? caught : new ApiError('badResponse', String(caught), { cause: caught });
    if (!this.session.isCurrent(generation) || error.kind === 'cancelled') return error;
    const keyProblem = error.kind === 'unauthorized' || error.kind === 'keyUnsendable';
    this.log?.[keyProblem || error.kind === 'noKey' ? 'warn' : 'error'](
      `${kind} failed: ${error.kind}: ${error.message}${error.requestId ? ` (request id ${error.requestId})` : ''}`,
    );
    const firstInEpisode = this.failing.size === 0;
    if (kind !== 'action' && kind !== 'details') this.failing.add(kind);
    // No key at all is not a rejection: the state is noKey already, and nothing was sent.
    if (keyProblem) {
      this.rejected = error;
      this.onDidRejectKeyEmitter.fire(error);
    }
    this.onDidFailEmitter.fire({ kind, error, userInitiated: reason === 'user', firstInEpisode });
    return error;
  }

  /** A request of `kind` succeeded: the key works, and that datum's outage is over. */
  succeeded(kind: Failure['kind']): void {
    this.failing.delete(kind);
    this.rejected = undefined;
  }

  /** A new key or server, or the user asked to try the rejected key again: start with a clean slate. */
  clear(): void {
    this.failing.clear();
    this.rejected = undefined;
  }
}
