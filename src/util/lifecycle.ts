export interface IDisposable {
  dispose(): void;
}

export function toDisposable(dispose: () => void): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

export abstract class Disposable implements IDisposable {
  private readonly owned: IDisposable[] = [];
  protected disposed = false;

  protected register<T extends IDisposable>(disposable: T): T {
    if (this.disposed) disposable.dispose();
    else this.owned.push(disposable);
    return disposable;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const disposable of this.owned.splice(0).reverse()) {
      try {
        disposable.dispose();
      } catch {
        // One failing dispose must not keep the others alive.
      }
    }
  }
}
