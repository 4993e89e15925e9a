import { cancelledError } from './errors';

export type RequestPriority = 'user' | 'background';

export class Urgency {
  private readonly listeners = new Set<() => void>();

  constructor(private current: RequestPriority = 'background') {}

  get priority(): RequestPriority {
    return this.current;
  }

  raise(): void {
    if (this.current === 'user') return;
    this.current = 'user';
    for (const listener of this.listeners) listener();
    this.listeners.clear();
  }

  onRaise(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

interface Shared<T> {
  readonly promise: Promise<T>;
  readonly controller: AbortController;
  readonly urgency: Urgency;
  users: number;
}

// The shared request is cancelled only when every caller has left.
export class SharedRequests<T> {
  private readonly inflight = new Map<string, Shared<T>>();

  run(
    id: string,
    start: (signal: AbortSignal, urgency: Urgency) => Promise<T>,
    signal?: AbortSignal,
    priority: RequestPriority = 'background',
  ): Promise<T> {
    if (signal?.aborted) return Promise.reject(cancelledError());
    let shared = this.inflight.get(id);
    if (!shared || shared.controller.signal.aborted) {
      const controller = new AbortController();
      const urgency = new Urgency(priority);
      const created: Shared<T> = {
        promise: start(controller.signal, urgency).finally(() => {
          if (this.inflight.get(id) === created) this.inflight.delete(id);
        }),
        controller,
        urgency,
        users: 0,
      };
      shared = created;
      this.inflight.set(id, shared);
    } else if (priority === 'user') {
      shared.urgency.raise();
    }
    return join(shared, signal);
  }

  raise(id: string): void {
    this.inflight.get(id)?.urgency.raise();
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
      reject(cancelledError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    shared.promise.then(
      (value) => leave() && resolve(value),
      (error: Error) => leave() && reject(error),
    );
  });
}
