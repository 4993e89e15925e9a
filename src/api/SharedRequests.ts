import { type ApiError, cancelledError } from './errors';

interface Shared<T> {
  readonly promise: Promise<T>;
  readonly controller: AbortController;
  users: number;
}

/**
 * Concurrent identical reads share one request. Each caller may cancel its own wait; the request itself is
 * cancelled only when every caller has left.
 */
export class SharedRequests<T> {
  private readonly inflight = new Map<string, Shared<T>>();

  run(id: string, start: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(cancelled());
    let shared = this.inflight.get(id);
    if (!shared || shared.controller.signal.aborted) {
      const controller = new AbortController();
      const created: Shared<T> = {
        promise: start(controller.signal).finally(() => {
          if (this.inflight.get(id) === created) this.inflight.delete(id);
        }),
        controller,
        users: 0,
      };
      shared = created;
      this.inflight.set(id, shared);
    }
    return join(shared, signal);
  }

  abortAll(): void {
    for (const shared of this.inflight.values()) shared.controller.abort();
    this.inflight.clear();
  }
}

function join<T>(shared: Shared<T>, signal?: AbortSignal): Promise<T> {
  shared.users++;
  if (!signal) return shared.promise;
  return new Promise<T>((resolve, reject) => {
    let left = false;
    const leave = (): boolean => {
      if (left) return false;
      left = true;
      signal.removeEventListener('abort', onAbort);
      shared.users--;
      return true;
    };
    const onAbort = (): void => {
      if (!leave()) return;
      if (shared.users === 0) shared.controller.abort();
      reject(cancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    shared.promise.then(
      (value) => leave() && resolve(value),
      (error: Error) => leave() && reject(error),
    );
  });
}

function cancelled(): ApiError {
  return cancelledError();
}
