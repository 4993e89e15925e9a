import { setMaxListeners } from 'node:events';
import { Disposable } from '../util/lifecycle';
import { type UserCall, UserWaits } from './UserWaits';

/**
 * One answer to "is this reply still wanted?". A session lasts while the key and the server stay the same; `renew()`
 * starts a new one, abandoning every request of the old one, and replies stamped with an older generation are dropped.
 */
export class Session extends Disposable {
  private current = 0;
  private controller = newAbortController();
  private readonly userWaits = this.register(new UserWaits());
  /** A request the user started waits for the API's rate limit: say so, and offer to cancel. */
  readonly onDidWaitForLimit = this.userWaits.onDidWait;

  /** Stamp a request with this before it starts; ask `isCurrent` when its answer arrives. */
  get generation(): number {
    return this.current;
  }

  /** Aborted when the session ends: every request of this key and server carries it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  isCurrent(generation: number): boolean {
    return generation === this.current && !this.disposed;
  }

  /** A signal and a wait reporter for one request the user is waiting on (Cancel on the wait abandons it). */
  userCall(): UserCall {
    return this.userWaits.begin(this.controller.signal);
  }

  /** Abandons the requests the user is waiting on; background work goes on. */
  cancelUserWaits(): void {
    this.userWaits.cancelAll();
  }

  /** The key or server changed: nothing under way is wanted any more. */
  renew(): void {
    this.current++;
    this.controller.abort();
    this.controller = newAbortController();
  }

  override dispose(): void {
    this.current++;
    this.controller.abort();
    super.dispose();
  }
}

/** One signal cancels every request of a key or server; with a queue of them it has many listeners, by design. */
function newAbortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
