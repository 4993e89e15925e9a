import { type CallOptions } from '../api/ApiClient';
import { type Clock } from '../api/clock';
import { Urgency } from '../api/SharedRequests';
import { type Failures } from './Failures';
import { type Session } from './Session';
import { type DataKind, type ListCoverage, type RefreshReason, type Slot } from './types';

export interface Loaded<T> {
  readonly value: T;
  readonly coverage?: ListCoverage;
}

export interface ResourceDeps {
  readonly session: Session;
  readonly failures: Failures;
  readonly clock: Clock;
  readonly changed: (kind: DataKind) => void;
  readonly settled: () => void;
}

export class Resource<T> {
  private current: Slot<T> = { loading: false };
  private running?: Promise<void>;
  private urgency?: Urgency;

  constructor(
    readonly kind: DataKind,
    private readonly read: (options: CallOptions) => Promise<Loaded<T>>,
    private readonly deps: ResourceDeps,
    private readonly onValue?: (value: T) => void,
  ) {}

  get slot(): Slot<T> {
    return this.current;
  }

  refresh(reason: RefreshReason): Promise<void> {
    if (this.running) {
      if (reason === 'user') this.urgency?.raise();
      return this.running;
    }
    const urgency = new Urgency(reason === 'user' ? 'user' : 'background');
    const started: Promise<void> = this.load(reason, urgency).finally(() => {
      // A reset may have let a newer session's load start meanwhile: leave that one alone.
      if (this.running === started) {
        this.running = undefined;
        this.urgency = undefined;
      }
    });
    this.running = started;
    this.urgency = urgency;
    return started;
  }

  set(value: T): void {
    this.patch({ value, updatedAt: this.deps.clock.now() });
  }

  reset(): void {
    this.running = undefined;
    this.urgency = undefined;
    this.current = { loading: false };
  }

  private async load(reason: RefreshReason, urgency: Urgency): Promise<void> {
    const { session, failures, clock } = this.deps;
    const generation = session.generation;
    const call = reason === 'user' ? session.userCall() : undefined;
    const options: CallOptions = call
      ? { signal: call.signal, priority: 'user', urgency, onWait: call.onWait }
      : { signal: session.signal, priority: 'background', urgency };
    this.patch({ loading: true });
    const askedAt = clock.now();
    try {
      const { value, coverage } = await this.read(options);
      if (!session.isCurrent(generation)) return;
      this.onValue?.(value);
      this.patch({
        value,
        coverage,
        askedAt,
        updatedAt: clock.now(),
        error: undefined,
        failedAt: undefined,
        failedInARow: undefined,
      });
      failures.succeeded(this.kind);
    } catch (caught) {
      const error = failures.record(this.kind, caught, urgency.priority === 'user' ? 'user' : reason, generation);
      if (session.isCurrent(generation) && error.kind !== 'cancelled') {
        this.patch({ error, failedAt: clock.now(), failedInARow: (this.current.failedInARow ?? 0) + 1 });
      }
    } finally {
      call?.end();
      if (session.isCurrent(generation)) {
        this.patch({ loading: false });
        this.deps.settled();
      }
    }
  }

  private patch(change: Partial<Slot<T>>): void {
    this.current = { ...this.current, ...change };
    if ('loading' in change || 'value' in change) this.deps.changed(this.kind);
  }
}
