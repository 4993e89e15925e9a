import { type IDisposable, toDisposable } from './lifecycle';

export type Event<T> = (
  listener: (value: T) => unknown,
  thisArgs?: unknown,
  disposables?: IDisposable[],
) => IDisposable;

export class Emitter<T> implements IDisposable {
  private listeners = new Set<(value: T) => unknown>();

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs === undefined ? listener : listener.bind(thisArgs);
    this.listeners.add(bound);
    const disposable = toDisposable(() => this.listeners.delete(bound));
    disposables?.push(disposable);
    return disposable;
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        // A faulty listener must not stop the others or the store.
        console.error(error);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
