import { setMaxListeners } from 'node:events';
import { type RequestLogEntry } from '../api/ApiClient';
import { parseBaseUrl } from '../api/baseUrl';
import { keyId } from '../api/keyId';
import { type Clock, systemClock } from '../api/clock';
import { ApiError, isApiError } from '../api/errors';
import { type Account, type ActionResult, type Balance, type Invoice, type Listing, type Order, type OrderAction } from '../api/models';
import { type RateLimitStatus } from '../api/RateLimiter';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';
import { ApiConnection } from './ApiConnection';
import { OrderActions } from './OrderActions';
import { OrderList } from './OrderList';
import { UserWaits } from './UserWaits';
import {
  type ApiClientLike, type ConnectionState, type DataKind, type Failure, type ListCoverage, type OrdersChange, type PendingAction,
  type RefreshReason, type Slot, type StoreDeps,
} from './types';

export { type Settled } from './OrderActions';

/** What each slot holds; the orders themselves live in `Store.orders`, their slot only has the bookkeeping. */
interface Values {
  orders: never;
  balance: Balance;
  account: Account;
  invoices: readonly Invoice[];
}

type Slots = { [K in DataKind]: Slot<Values[K]> };

const KINDS: readonly DataKind[] = ['orders', 'balance', 'account', 'invoices'];
const emptySlots = (): Slots => ({ orders: { loading: false }, balance: { loading: false }, account: { loading: false }, invoices: { loading: false } });

/**
 * The one source of truth: it alone talks to the API, keeps the last good data when a refresh fails, and tells the
 * views what changed. Free of `vscode`, so it runs in unit tests and benchmarks as it runs in the extension.
 */
export class Store extends Disposable {
  readonly clock: Clock;
  readonly orders = new OrderList();
  private readonly connection: ApiConnection;
  private readonly actions: OrderActions;
  /** Bumped when the key or the server changes: answers to older requests are dropped. */
  private generation = 0;
  private abort = newAbortController();
  private hasKey = false;
  private keyKnown = false;
  /** A hash of the key in use, to tell a new key from the echo of our own write; never the key itself. */
  private keyFingerprint?: string;
  private keyRejected?: ApiError;
  private readonly failingKinds = new Set<string>();
  private readonly inflight = new Map<DataKind, Promise<void>>();
  private slots = emptySlots();
  private readonly detailCache = new Map<string, { order: Order; at: number }>();
  private readonly coverage = new Map<'orders' | 'invoices', ListCoverage>();
  private currentState: ConnectionState = 'noBaseUrl';

  private readonly onDidChangeStateEmitter = this.register(new Emitter<ConnectionState>());
  readonly onDidChangeState = this.onDidChangeStateEmitter.event;
  private readonly onDidChangeOrdersEmitter = this.register(new Emitter<OrdersChange>());
  readonly onDidChangeOrders = this.onDidChangeOrdersEmitter.event;
  private readonly onDidChangeDataEmitter = this.register(new Emitter<DataKind>());
  /** Fires for every slot change, orders included (loading flags, values, errors). */
  readonly onDidChangeData = this.onDidChangeDataEmitter.event;
  private readonly onDidRequestEmitter = this.register(new Emitter<RequestLogEntry>());
  /** Every HTTP attempt, for the log and the request budget shown to the user. */
  readonly onDidRequest = this.onDidRequestEmitter.event;
  private readonly onDidFailEmitter = this.register(new Emitter<Failure>());
  readonly onDidFail = this.onDidFailEmitter.event;
  private readonly userWaits = this.register(new UserWaits());
  /** A request the user started waits for the API's rate limit: say so, and offer to cancel. */
  readonly onDidWaitForLimit = this.userWaits.onDidWait;
  readonly onDidSettle: OrderActions['onDidSettle'];

  constructor(private readonly deps: StoreDeps) {
    super();
    this.clock = deps.clock ?? systemClock;
    this.connection = new ApiConnection(deps, (entry) => this.onDidRequestEmitter.fire(entry));
    this.actions = this.register(new OrderActions({
      clock: this.clock,
      api: () => this.connection.api(),
      epoch: () => this.generation,
      signal: () => this.abort.signal,
      userCall: () => this.userWaits.begin(this.abort.signal),
      fail: (kind, error, reason, epoch) => this.fail(kind, error, reason, epoch),
      accept: (order) => this.accept(order),
      refreshOrders: () => this.refresh(['orders'], 'background'),
      orderCount: () => this.orders.size,
      changed: (id) => this.onDidChangeOrdersEmitter.fire({ ids: [id] }),
      log: (level, message) => this.deps.log?.[level](message),
    }));
    this.onDidSettle = this.actions.onDidSettle;
    this.register({ dispose: () => this.teardown() });
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  get ordersInfo(): Slot<never> {
    return this.slots.orders;
  }

  get balance(): Slot<Balance> {
    return this.slots.balance;
  }

  get account(): Slot<Account> {
    return this.slots.account;
  }

  get invoices(): Slot<readonly Invoice[]> {
    return this.slots.invoices;
  }

  get hasApiKey(): boolean {
    return this.hasKey;
  }

  pending(id: string): PendingAction | undefined {
    return this.actions.get(id);
  }

  rateLimitStatus(): RateLimitStatus | undefined {
    return this.connection.current?.rateLimitStatus();
  }

  /**
   * Reads the stored key; call once at start and whenever SecretStorage reports a change. The same key again (the
   * echo of our own write, or another window saving the same key) changes nothing.
   */
  async keyChanged(): Promise<void> {
    // A SecretStorage failure propagates: the user must hear of it, not be told there is no key.
    const key = await this.deps.getKey();
    const fingerprint = key ? keyId(key) : undefined;
    if (this.keyKnown && fingerprint === this.keyFingerprint) return;
    this.useKey(fingerprint);
    this.updateState();
  }

  /** After the user asked to try again with the key the server rejected (it may have been a passing fault). */
  clearKeyRejection(): void {
    this.keyRejected = undefined;
    this.failingKinds.clear();
    this.updateState();
  }

  /**
   * The base URL, timeout or limit changed. A new server means none of the data is valid any more; otherwise the
   * next request gets a client with the new settings while the requests under way finish on the old one.
   */
  settingsChanged(): void {
    if (this.deps.settings().baseUrl !== this.connection.baseUrl) {
      this.reset();
      this.connection.dispose();
    } else {
      this.connection.retire();
    }
    this.updateState();
  }

  /** Checks a key with `GET /me` before it is stored; the account it returns is kept so it is not fetched twice. */
  async verifyKey(key: string): Promise<Account> {
    const client = this.connection.create(() => key);
    try {
      return await client.getAccount({ priority: 'user' });
    } finally {
      client.dispose().catch(() => undefined);
    }
  }

  /** After a verified key was stored: the account read while verifying is kept. */
  adoptKey(account: Account, key: string): void {
    this.useKey(keyId(key));
    this.patch('account', { value: account, updatedAt: this.clock.now() });
    this.updateState();
  }

  /** Switches to another key (or none): everything known under the old one goes. The caller updates the state. */
  private useKey(fingerprint: string | undefined): void {
    this.keyKnown = true;
    this.keyFingerprint = fingerprint;
    this.hasKey = fingerprint !== undefined;
    // After the key fields, so the listeners of the reset's events already see the new key state.
    this.reset();
  }

  /** Whether a kind loaded successfully within the last `ms`: a click on Refresh need not fetch it again. */
  isFresh(kind: DataKind, ms: number): boolean {
    const { updatedAt, error } = this.slots[kind];
    return updatedAt !== undefined && !error && this.clock.now() - updatedAt < ms;
  }

  /** Refreshes the given data; a refresh already under way for a kind is joined, never repeated. */
  refresh(kinds: readonly DataKind[], reason: RefreshReason): Promise<void> {
    if (!this.canRequest()) return Promise.resolve();
    return Promise.all(kinds.map((kind) => {
      let running = this.inflight.get(kind);
      if (!running) {
        const started: Promise<void> = this.load(kind, reason).finally(() => {
          // A reset may have replaced this entry with a newer generation's load: leave that one alone.
          if (this.inflight.get(kind) === started) this.inflight.delete(kind);
        });
        running = started;
        this.inflight.set(kind, running);
      }
      return running;
    })).then(() => undefined);
  }

  /**
   * The full order from `GET /orders/{id}`, cached briefly so expanding and collapsing does not refetch. `reason`
   * says who asked: a tree redraw is background, so its failures are reported like any other background failure.
   */
  async orderDetails(id: string, maxAgeMs = 30_000, reason: RefreshReason = 'user'): Promise<Order> {
    const cached = this.detailCache.get(id);
    if (cached && this.clock.now() - cached.at < maxAgeMs) return cached.order;
    const epoch = this.generation;
    try {
      const order = await this.connection.api().getOrder(id, { signal: this.abort.signal, priority: reason });
      if (epoch === this.generation) this.accept(order);
      return order;
    } catch (error) {
      throw this.fail('details', error, reason, epoch);
    }
  }

  runAction(id: string, action: OrderAction): Promise<ActionResult> {
    return this.actions.run(id, action);
  }

  /** Abandons the requests the user is waiting on (Cancel on the rate-limit wait); background work goes on. */
  cancelUserWaits(): void {
    this.userWaits.cancelAll();
  }

  private async load(kind: DataKind, reason: RefreshReason): Promise<void> {
    const epoch = this.generation;
    const call = reason === 'user' ? this.userWaits.begin(this.abort.signal) : undefined;
    const options = call
      ? { signal: call.signal, priority: 'user' as const, onWait: call.onWait }
      : { signal: this.abort.signal, priority: 'background' as const };
    this.patch(kind, { loading: true });
    try {
      const api = this.connection.api();
      const value = await read(api, kind, options);
      if (epoch !== this.generation) return;
      if (kind === 'orders' || kind === 'invoices') this.noteCoverage(kind, value as Listing<unknown>);
      if (kind === 'orders') this.applyOrders((value as Listing<Order>).items);
      else if (kind === 'invoices') this.patch(kind, { value: (value as Listing<Invoice>).items });
      else this.patch(kind, { value } as Partial<Slots[typeof kind]>);
      this.patch(kind, { updatedAt: this.clock.now(), error: undefined, failedAt: undefined });
      this.failingKinds.delete(kind);
      this.keyRejected = undefined;
    } catch (error) {
      const failure = this.fail(kind, error, reason, epoch);
      if (epoch === this.generation && failure.kind !== 'cancelled') this.patch(kind, { error: failure, failedAt: this.clock.now() });
    } finally {
      call?.end();
      if (epoch === this.generation) {
        this.patch(kind, { loading: false });
        this.updateState();
      }
    }
  }

  /** How much of a list was read: a list cut short by a bound is shown as such, never silently. */
  listCoverage(kind: 'orders' | 'invoices'): ListCoverage | undefined {
    return this.coverage.get(kind);
  }

  private noteCoverage(kind: 'orders' | 'invoices', listing: Listing<unknown>): void {
    if (listing.total === undefined && listing.stoppedBy === undefined) this.coverage.delete(kind);
    else this.coverage.set(kind, { shown: listing.items.length, total: listing.total, stoppedBy: listing.stoppedBy });
  }

  private applyOrders(orders: readonly Order[]): void {
    const change = this.orders.replace(orders);
    // An action stays pending whatever one list says: an order missing from a page (or a list cut short) may still
    // have its POST under way, and forgetting it would let a second one through. Its poll ends it if it is gone.
    for (const id of this.actions.ids()) {
      const order = this.orders.get(id);
      if (order) this.actions.observe(order);
    }
    if (change) this.onDidChangeOrdersEmitter.fire(change);
  }

  /**
   * One order from `GET /orders/{id}` (a poll, details, an action's answer). It updates the list only where the tree
   * shows a difference: the single-order answer often has more fields than the list's, which is no change.
   */
  private accept(order: Order): void {
    if (this.orders.updateSummary(order)) this.onDidChangeOrdersEmitter.fire({ ids: [order.id] });
    this.detailCache.set(order.id, { order, at: this.clock.now() });
    this.actions.observe(order);
  }

  /** Records a failure: logged, counted into the current outage, and announced (the views decide what to show). */
  private fail(kind: Failure['kind'], caught: unknown, reason: RefreshReason, epoch: number): ApiError {
    const error = isApiError(caught) ? caught : new ApiError('badResponse', String(caught), { cause: caught });
    if (epoch !== this.generation || error.kind === 'cancelled') return error;
    this.deps.log?.[error.kind === 'unauthorized' ? 'warn' : 'error'](
      `${kind} failed: ${error.kind}: ${error.message}${error.requestId ? ` (request id ${error.requestId})` : ''}`);
    if (error.kind === 'unauthorized' && error.code !== 'no_key') {
      this.keyRejected = error;
      this.actions.abandonAll();
    }
    const firstInEpisode = this.failingKinds.size === 0;
    if (kind !== 'action' && kind !== 'details') this.failingKinds.add(kind);
    this.onDidFailEmitter.fire({ kind, error, userInitiated: reason === 'user', firstInEpisode });
    this.updateState();
    return error;
  }

  private patch<K extends DataKind>(kind: K, change: Partial<Slots[K]>): void {
    this.slots = { ...this.slots, [kind]: { ...this.slots[kind], ...change } };
    if ('loading' in change || 'value' in change) this.onDidChangeDataEmitter.fire(kind);
  }

  private canRequest(): boolean {
    return this.hasKey && (this.currentState === 'ready' || this.currentState === 'loading' ||
      this.currentState === 'unreachable' || this.currentState === 'invalidKey');
  }

  private computeState(): ConnectionState {
    const { baseUrl } = this.deps.settings();
    if (!baseUrl.trim()) return 'noBaseUrl';
    try {
      parseBaseUrl(baseUrl);
    } catch {
      return 'badBaseUrl';
    }
    if (!this.hasKey) return 'noKey';
    if (this.keyRejected) return 'invalidKey';
    const slots = KINDS.map((kind) => this.slots[kind]);
    if (this.slots.orders.updatedAt !== undefined || slots.some((s) => s.value !== undefined)) return 'ready';
    return slots.some((s) => s.error) && !slots.some((s) => s.loading) ? 'unreachable' : 'loading';
  }

  private updateState(): void {
    const state = this.computeState();
    if (state === this.currentState) return;
    this.currentState = state;
    this.onDidChangeStateEmitter.fire(state);
  }

  /** Forgets everything tied to the old key or server, and abandons the requests made for it. */
  private reset(): void {
    this.generation++;
    this.abort.abort();
    this.abort = newAbortController();
    this.inflight.clear();
    this.actions.clear();
    this.detailCache.clear();
    this.coverage.clear();
    this.failingKinds.clear();
    this.keyRejected = undefined;
    this.slots = emptySlots();
    const change = this.orders.replace([]);
    if (change) this.onDidChangeOrdersEmitter.fire(change);
    for (const kind of KINDS) this.onDidChangeDataEmitter.fire(kind);
  }

  private teardown(): void {
    this.generation++;
    this.abort.abort();
    this.connection.dispose();
  }
}

function read(api: ApiClientLike, kind: DataKind, options: Parameters<ApiClientLike['getBalance']>[0]): Promise<unknown> {
  switch (kind) {
    case 'orders': return api.listOrders(options);
    case 'balance': return api.getBalance(options);
    case 'account': return api.getAccount(options);
    case 'invoices': return api.listInvoices(options);
  }
}

/** One signal cancels every request of a key or server; with a queue of them it has many listeners, by design. */
function newAbortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
