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
import { OrderActions, type Settled } from './orders/OrderActions';
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

/**
 * The one source of truth, as a facade over its parts: the session (which answers are still wanted), one Resource
 * per datum, the orders with their actions, and the failures. Free of `vscode`, so it runs in unit tests and
 * benchmarks as it runs in the extension.
 */
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
  /** Fires for every slot change, orders included (loading flags, values). */
  readonly onDidChangeData = this.onDidChangeDataEmitter.event;
  private readonly onDidRequestEmitter = this.register(new Emitter<RequestLogEntry>());
  /** Every HTTP attempt, for the log and the request budget shown to the user. */
  readonly onDidRequest = this.onDidRequestEmitter.event;
  readonly onDidChangeOrders: OrderBook['onDidChange'];
  readonly onDidFail: Failures['onDidFail'];
  private readonly onDidSettleEmitter = this.register(new Emitter<Settled>());
  /** An action's order reached a settled state (the one it aimed for, or another). */
  readonly onDidSettle = this.onDidSettleEmitter.event;
  /** The server answered an action's POST (accepted or not). */
  readonly onDidSend: OrderActions['onDidSend'];
  /** A request the user started waits for the API's rate limit: say so, and offer to cancel. */
  readonly onDidWaitForLimit = this.session.onDidWaitForLimit;
  /** An order began or stopped settling after an action, or was polled: the next poll may be due at another time. */
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
    this.actions = this.register(new OrderActions(this.session, api, this.book, this.failures, deps.log));
    this.register(this.actions.onDidSettle((settled) => this.onDidSettleEmitter.fire(settled)));
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

  /** The orders, indexed by id, in the server's order. */
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

  /** Any datum's slot, for those that treat them alike (the scheduler). */
  slot(kind: DataKind): Slot<unknown> {
    return this.resource(kind).slot;
  }

  pending(id: string): PendingAction | undefined {
    return this.actions.get(id);
  }

  /** What the server last sent for an endpoint, masked and cut, while the client that read it is in use. */
  lastAnswer(kind: AnswerKind): LastAnswer | undefined {
    return this.connection.current?.lastAnswer(kind);
  }

  rateLimitStatus(): RateLimitStatus | undefined {
    return this.connection.current?.rateLimitStatus();
  }

  /** How much of a list was read: a list cut short by a bound is shown as such, never silently. */
  listCoverage(kind: 'orders' | 'invoices'): ListCoverage | undefined {
    return this.slot(kind).coverage;
  }

  /**
   * Reads the stored key: at start, and whenever the key store reports a change (the one path a key change takes).
   * The same key again (another window saving it too) changes nothing.
   */
  async keyChanged(): Promise<void> {
    // A SecretStorage failure propagates: the user must hear of it, not be told there is no key.
    if (!this.key.take(await this.deps.getKey())) return;
    // After the key changed, so the listeners of the reset's events already see the new key state.
    this.reset();
    const account = this.key.takeCheckedAccount();
    if (account) this.resources.account.set(account);
    this.updateState();
  }

  /** After the user asked to try again with the key the server rejected (it may have been a passing fault). */
  clearKeyRejection(): void {
    this.failures.clear();
    this.updateState();
  }

  /**
   * The base URL, timeout or limit changed. A new server means none of the data is valid any more; otherwise the
   * next request gets a client with the new settings while the requests under way finish on the old one.
   */
  settingsChanged(): void {
    if (this.deps.settings().baseUrl !== this.connection.baseUrl) {
      this.reset();
      this.connection.abandon();
    } else {
      this.connection.retire();
    }
    this.updateState();
  }

  /** The answers are to be read another way (a new field map): what was read stands for nothing now, so read again. */
  startOver(): Promise<void> {
    const read = KINDS.filter((kind) => this.slot(kind).updatedAt !== undefined || this.slot(kind).error);
    this.reset();
    this.updateState();
    return this.refresh(read, 'user');
  }

  /**
   * Checks a key with `GET /me` before it is stored. The account it returns is kept for when the key store reports
   * that key, so it is not fetched twice.
   */
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

  /** Whether a kind loaded successfully within the last `ms`: a click on Refresh need not fetch it again. */
  isFresh(kind: DataKind, ms: number): boolean {
    const { updatedAt, error } = this.slot(kind);
    return updatedAt !== undefined && !error && this.clock.now() - updatedAt < ms;
  }

  /** Refreshes the given data; a refresh already under way for a kind is joined, never repeated. */
  refresh(kinds: readonly DataKind[], reason: RefreshReason): Promise<void> {
    // A disposed store (an account removed or moved) builds no client: nothing would ever close it.
    if (this.disposed || !this.hasApiKey || !canRequest(this.currentState)) return Promise.resolve();
    return Promise.all(kinds.map((kind) => this.resource(kind).refresh(reason))).then(() => undefined);
  }

  /**
   * The full order from `GET /orders/{id}`, cached briefly so expanding and collapsing does not refetch. `reason`
   * says who asked: a tree redraw is background, so its failures are reported like any other background failure.
   */
  orderDetails(id: string, maxAgeMs = 30_000, reason: RefreshReason = 'user'): Promise<Order> {
    return this.book.get(id, maxAgeMs, reason);
  }

  runAction(id: string, action: OrderAction, source?: ActionSource): Promise<ActionResult> {
    return this.actions.run(id, action, source);
  }

  /** When the next poll of an order settling after an action is due (the scheduler's business). */
  settlingDueAt(): number | undefined {
    return this.actions.poller.nextAt();
  }

  /** Polls the settling orders that are due. */
  pollSettling(): Promise<void> {
    return this.actions.poller.tick();
  }

  /**
   * Which session the data belongs to: a new key or server starts a new one. A tree node keeps the generation it was
   * made in, so a command on a node from before never acts on whatever now has its id.
   */
  get generation(): number {
    return this.session.generation;
  }

  /** Abandons the requests the user is waiting on (Cancel on the rate-limit wait); background work goes on. */
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

  /** Forgets everything tied to the old key or server, and abandons the requests made for it. */
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
