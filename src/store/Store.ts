import { type AnswerKind, type LastAnswer, type RequestLogEntry } from '../api/ApiClient';
import { type Clock, systemClock } from '../api/clock';
import {
  type Account,
  type ActionResult,
  type Balance,
  type Invoice,
  type Order,
  type OrderAction,
} from '../api/models';
import { type RateLimitStatus } from '../api/RateLimiter';
import { Emitter, type Event } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';
import { ApiConnection } from './ApiConnection';
import { canRequest, connectionState } from './connectionState';
import { Failures } from './Failures';
import { KeyState } from './KeyState';
import { OrderActions } from './orders/OrderActions';
import { OrderBook } from './orders/OrderBook';
import { type OrderList } from './orders/OrderList';
import { type Resource, type ResourceDeps } from './Resource';
import { KINDS, makeResources, type Resources } from './resources';
import { Session } from './Session';
import {
  type ActionSource,
  type ApiClientLike,
  type ConnectionState,
  type DataKind,
  type ListCoverage,
  type PendingAction,
  type RefreshReason,
  type Slot,
  type StoreDeps,
} from './types';

export { type Sent, type Settled } from './orders/OrderActions';

/** Free of `vscode`: tests and benchmarks run it as the extension does. */
export class Store extends Disposable {
  readonly clock: Clock;
  private readonly session = this.register(new Session());
  private readonly connection: ApiConnection;
  private readonly failures: Failures;
  private readonly book: OrderBook;
  private readonly actions: OrderActions;
  private readonly resources: Resources;
  private readonly key = new KeyState();
  private currentState: ConnectionState = 'noBaseUrl';

  private readonly onDidChangeStateEmitter = this.register(new Emitter<ConnectionState>());
  readonly onDidChangeState = this.onDidChangeStateEmitter.event;
  private readonly onDidChangeDataEmitter = this.register(new Emitter<DataKind>());
  readonly onDidChangeData = this.onDidChangeDataEmitter.event;
  private readonly onDidRequestEmitter = this.register(new Emitter<RequestLogEntry>());
  readonly onDidRequest = this.onDidRequestEmitter.event;
  readonly onDidChangeOrders: OrderBook['onDidChange'];
  readonly onDidFail: Failures['onDidFail'];
  readonly onDidSettle: OrderActions['onDidSettle'];
  readonly onDidSend: OrderActions['onDidSend'];
  readonly onDidWaitForLimit = this.session.onDidWaitForLimit;
  readonly onDidChangeSettling: Event<void>;

  constructor(private readonly deps: StoreDeps) {
    super();
    this.clock = deps.clock ?? systemClock;
    this.connection = new ApiConnection(deps, (entry) => this.onDidRequestEmitter.fire(entry));
    const api = (): ApiClientLike => this.connection.api();
    this.failures = this.register(new Failures(this.session, deps.log));
    const parts: ResourceDeps = {
      session: this.session,
      failures: this.failures,
      clock: this.clock,
      changed: (kind) => this.onDidChangeDataEmitter.fire(kind),
      settled: () => this.updateState(),
    };
    this.book = this.register(new OrderBook(api, parts));
    this.resources = makeResources(api, parts);
    this.actions = this.register(new OrderActions(this.session, api, this.book, this.failures, deps.log, deps.guard));
    this.onDidSettle = this.actions.onDidSettle;
    this.onDidChangeSettling = this.actions.poller.onDidChange;
    this.onDidSend = this.actions.onDidSend;
    this.onDidChangeOrders = this.book.onDidChange;
    this.onDidFail = this.failures.onDidFail;
    this.register(this.failures.onDidRejectKey(() => this.updateState()));
    this.register({ dispose: () => this.connection.abandon() });
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  get orders(): OrderList {
    return this.book.list;
  }

  get ordersInfo(): Slot<readonly Order[]> {
    return this.book.resource.slot;
  }

  get balance(): Slot<Balance> {
    return this.resources.balance.slot;
  }

  get account(): Slot<Account> {
    return this.resources.account.slot;
  }

  get invoices(): Slot<readonly Invoice[]> {
    return this.resources.invoices.slot;
  }

  get hasApiKey(): boolean {
    return this.key.present;
  }

  slot(kind: DataKind): Slot<unknown> {
    return this.resource(kind).slot;
  }

  pending(id: string): PendingAction | undefined {
    return this.actions.get(id);
  }

  lastAnswer(kind: AnswerKind): LastAnswer | undefined {
    return this.connection.current?.lastAnswer(kind);
  }

  rateLimitStatus(): RateLimitStatus | undefined {
    return this.connection.current?.rateLimitStatus();
  }

  listCoverage(kind: 'orders' | 'invoices'): ListCoverage | undefined {
    return this.slot(kind).coverage;
  }

  /** The same key again (another window) changes nothing. */
  async keyChanged(): Promise<void> {
    // A SecretStorage failure propagates: the user must hear of it, not be told there is no key.
    if (!this.key.take(await this.deps.getKey())) return;
    // After the key changed, so the reset's listeners see the new key state.
    this.reset();
    const account = this.key.takeCheckedAccount();
    if (account) this.resources.account.set(account);
    this.updateState();
  }

  clearKeyRejection(): void {
    this.failures.clear();
    this.updateState();
  }

  /** Other settings reach the next client while requests under way finish. */
  settingsChanged(): void {
    if (this.deps.settings().baseUrl !== this.connection.baseUrl) {
      this.reset();
      this.connection.abandon();
    } else {
      this.connection.retire();
    }
    this.updateState();
  }

  /** A new field map: what was read stands for nothing now. */
  startOver(): Promise<void> {
    const read = KINDS.filter((kind) => this.slot(kind).updatedAt !== undefined || this.slot(kind).error);
    this.reset();
    this.updateState();
    return this.refresh(read, 'user');
  }

  /** Before the key is stored; the account is kept, so it is not fetched twice. */
  async verifyKey(key: string): Promise<Account> {
    const client = this.connection.create(() => key);
    try {
      const account = await client.getAccount({ priority: 'user' });
      this.key.checked(key, account);
      return account;
    } finally {
      client.dispose().catch(() => undefined);
    }
  }

  isFresh(kind: DataKind, ms: number): boolean {
    const { updatedAt, error } = this.slot(kind);
    return updatedAt !== undefined && !error && this.clock.now() - updatedAt < ms;
  }

  /** A refresh under way is joined, never repeated. */
  refresh(kinds: readonly DataKind[], reason: RefreshReason): Promise<void> {
    // A disposed store (an account removed or moved) builds no client: nothing would ever close it.
    if (this.disposed || !this.hasApiKey || !canRequest(this.currentState)) return Promise.resolve();
    return Promise.all(kinds.map((kind) => this.resource(kind).refresh(reason))).then(() => undefined);
  }

  /** A tree redraw asks as `background`. */
  orderDetails(id: string, maxAgeMs = 30_000, reason: RefreshReason = 'user'): Promise<Order> {
    return this.book.get(id, maxAgeMs, reason);
  }

  runAction(id: string, action: OrderAction, source?: ActionSource): Promise<ActionResult> {
    return this.actions.run(id, action, source);
  }

  settlingDueAt(): number | undefined {
    return this.actions.poller.nextAt();
  }

  pollSettling(): Promise<void> {
    return this.actions.poller.tick();
  }

  get generation(): number {
    return this.session.generation;
  }

  /** Cancel on the rate-limit wait; background work goes on. */
  cancelUserWaits(): void {
    this.session.cancelUserWaits();
  }

  private resource(kind: DataKind): Pick<Resource<unknown>, 'slot' | 'refresh'> {
    return kind === 'orders' ? this.book.resource : this.resources[kind];
  }

  private updateState(): void {
    const state = connectionState({
      baseUrl: this.deps.settings().baseUrl,
      hasKey: this.hasApiKey,
      keyRejected: this.failures.keyRejected,
      slots: KINDS.map((kind) => this.slot(kind)),
    });
    if (state === this.currentState) return;
    this.currentState = state;
    this.onDidChangeStateEmitter.fire(state);
  }

  private reset(): void {
    this.session.renew();
    this.connection.current?.forgetAnswers();
    this.actions.clear();
    this.failures.clear();
    for (const resource of Object.values(this.resources)) resource.reset();
    this.book.reset();
    for (const kind of KINDS) this.onDidChangeDataEmitter.fire(kind);
  }
}
