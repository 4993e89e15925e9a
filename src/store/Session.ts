import { setMaxListeners } from 'node:events';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';

export interface UserCall {
  readonly signal: AbortSignal;
  readonly onWait: (until: number) => void;
  end(): void;
}

/** `renew()` abandons the requests of the old key or server and drops their replies. */
export class Session extends Disposable {
  private current = 0;
  private controller = newAbortController();
  private readonly userCalls = new Set<AbortController>();
  private readonly onDidWaitEmitter = this.register(new Emitter<{ readonly until: number }>());
  readonly onDidWaitForLimit = this.onDidWaitEmitter.event;

  get generation(): number {
    return this.current;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  isCurrent(generation: number): boolean {
    return generation === this.current && !this.disposed;
  }

  /** Cancel on a rate-limit wait abandons these, not the background reads. */
  userCall(): UserCall {
    const controller = new AbortController();
    this.userCalls.add(controller);
    const signal = AbortSignal.any([this.controller.signal, controller.signal]);
    setMaxListeners(0, signal);
    return {
      signal,
      onWait: (until) => this.onDidWaitEmitter.fire({ until }),
      end: () => this.userCalls.delete(controller),
    };
  }

  cancelUserWaits(): void {
    for (const controller of this.userCalls) controller.abort();
    this.userCalls.clear();
  }

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

/** Every queued request of a session listens to its signal. */
function newAbortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
