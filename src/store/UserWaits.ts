import { setMaxListeners } from 'node:events';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';

/** A request the user started has to wait for the API's rate limit until `until`. */
export interface LimitWait {
  readonly until: number;
}

export interface UserCall {
  readonly signal: AbortSignal;
  readonly onWait: (until: number) => void;
  /** The call is over: its signal is no longer needed. */
  end(): void;
}

/**
 * The requests the user is waiting on. A request held by the rate limit must not wait silently: the wait is announced
 * (the views show it with Cancel), and Cancel abandons exactly these requests, not the background ones.
 */
export class UserWaits extends Disposable {
  private readonly controllers = new Set<AbortController>();
  private readonly onDidWaitEmitter = this.register(new Emitter<LimitWait>());
  readonly onDidWait = this.onDidWaitEmitter.event;

  begin(base: AbortSignal): UserCall {
    const controller = new AbortController();
    this.controllers.add(controller);
    const signal = AbortSignal.any([base, controller.signal]);
    setMaxListeners(0, signal);
    return {
      signal,
      onWait: (until) => this.onDidWaitEmitter.fire({ until }),
      end: () => this.controllers.delete(controller),
    };
  }

  cancelAll(): void {
    for (const controller of this.controllers) controller.abort();
    this.controllers.clear();
  }
}
