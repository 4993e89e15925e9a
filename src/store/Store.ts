import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { parseBaseUrl } from '../api/baseUrl';
import { type Clock, systemClock } from '../api/clock';
import { ApiError, isApiError } from '../api/errors';
import { type Account, type ActionResult, type Balance, type Invoice, type Order, type OrderAction } from '../api/models';
import { type RateLimitStatus } from '../api/RateLimiter';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';
import { MAX_SETTLE_MS, settleVerdict } from './orderSettling';
import { OrderList } from './OrderList';
import { SettlingPoller } from './SettlingPoller';
import {
  type ApiClientLike, type ConnectionState, type DataKind, type Failure, type OrdersChange, type PendingAction,
  type RefreshReason, type Slot, type StoreDeps,
} from './types';

export interface Settled {
  readonly order: Order;
  readonly action: OrderAction;
  /** False when the order ended in another state than the action aims for (a start that failed, say). */
  readonly asExpected: boolean;
}

/**
 * The one source of truth: it alone talks to the API, keeps the last good data when a refresh fails, and tells the
 * views what changed. Free of `vscode`, so it runs in unit tests and benchmarks as it runs in the extension.
 */
export class Store extends Disposable {
  private readonly clock: Clock;
  private client?: ApiClientLike;
  private clientBaseUrl?: string;
  /** Bumped when the key or the server changes: answers to older requests are dropped. */
  private epoch = 0;
  private abort = newAbortController();
  private hasKey = false;
  private keyKnown = false;
  /** A hash of the key in use, to tell a new key from the echo of our own write; never the key itself. */
  private keyFingerprint?: string;
  private keyRejected?: ApiError;
  private readonly failingKinds = new Set<string>();
  private readonly inflight = new Map<DataKind, Promise<void>>();

  readonly orders = new OrderList();
  private ordersSlot: Omit<Slot<never>, 'value'> = { loading: false };
  private balanceSlot: Slot<Balance> = { loading: false };
  private accountSlot: Slot<Account> = { loading: false };
  private invoicesSlot: Slot<readonly Invoice[]> = { loading: false };
  private readonly pendingActions = new Map<string, PendingAction>();
  private readonly detailCache = new Map<string, { order: Order; at: number }>();
  private readonly poller: SettlingPoller;
  private currentState: ConnectionState = 'noBaseUrl';

  private readonly onDidChangeStateEmitter = this.register(new Emitter<ConnectionState>());
  readonly onDidChangeState = this.onDidChangeStateEmitter.event;
  private readonly onDidChangeOrdersEmitter = this.register(new Emitter<OrdersChange>());
  readonly onDidChangeOrders = this.onDidChangeOrdersEmitter.event;
  private readonly onDidChangeDataEmitter = this.register(new Emitter<DataKind>());
  /** Fires for every slot change, orders included (loading flags, values, errors). */
  readonly onDidChangeData = this.onDidChangeDataEmitter.event;
  private readonly onDidFailEmitter = this.register(new Emitter<Failure>());
  readonly onDidFail = this.onDidFailEmitter.event;
  private readonly onDidSettleEmitter = this.register(new Emitter<Settled>());
  readonly onDidSettle = this.onDidSettleEmitter.event;

  constructor(private readonly deps: StoreDeps) {
    super();
    this.clock = deps.clock ?? systemClock;
    this.poller = this.register(new SettlingPoller({
      pollOne: (id) => this.pollOrder(id),
      pollAll: () => this.refresh(['orders'], 'background'),
    }, this.clock));
    this.register({ dispose: () => this.teardown() });
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  get ordersInfo(): Omit<Slot<never>, 'value'> {
    return this.ordersSlot;
  }

  get balance(): Slot<Balance> {
    return this.balanceSlot;
  }

  get account(): Slot<Account> {
    return this.accountSlot;
  }

  get invoices(): Slot<readonly Invoice[]> {
    return this.invoicesSlot;
  }

  get hasApiKey(): boolean {
    return this.hasKey;
  }

  pending(id: string): PendingAction | undefined {
    return this.pendingActions.get(id);
  }

  rateLimitStatus(): RateLimitStatus | undefined {
    return this.client?.rateLimitStatus();
  }

  /**
   * Reads the stored key; call once at start and whenever SecretStorage reports a change. The same key again (the
   * echo of our own write, or another window saving the same key) changes nothing.
   */
  async keyChanged(): Promise<void> {
    const key = await this.deps.getKey().catch(() => undefined);
    const fingerprint = key ? fingerprintOf(key) : undefined;
    if (this.keyKnown && fingerprint === this.keyFingerprint) return;
    this.reset();
    this.keyKnown = true;
    this.keyFingerprint = fingerprint;
    this.hasKey = Boolean(key);
    this.updateState();
  }

  /** After the user asked to try again with the key the server rejected (it may have been a passing fault). */
  clearKeyRejection(): void {
    this.keyRejected = undefined;
    this.failingKinds.clear();
    this.updateState();
  }

  /** The base URL or a limit changed: a new server means none of the data is valid any more. */
  settingsChanged(): void {
    const { baseUrl } = this.deps.settings();
    if (baseUrl !== this.clientBaseUrl) this.reset();
    this.disposeClient();
    this.updateState();
  }

  /** Checks a key with `GET /me` before it is stored; the account it returns is kept so it is not fetched twice. */
  async verifyKey(key: string): Promise<Account> {
    const client = this.createClient(() => key);
    try {
      return await client.getAccount({ priority: 'user' });
    } finally {
      void client.dispose();
    }
  }

  /** After a verified key was stored: the account read while verifying is kept. */
  adoptKey(account: Account, key: string): void {
    this.reset();
    this.keyKnown = true;
    this.keyFingerprint = fingerprintOf(key);
    this.hasKey = true;
    this.accountSlot = { value: account, updatedAt: this.clock.now(), loading: false };
    this.onDidChangeDataEmitter.fire('account');
    this.updateState();
  }

  /** Whether a kind loaded successfully within the last `ms`: a click on Refresh need not fetch it again. */
  isFresh(kind: DataKind, ms: number): boolean {
    const slot = kind === 'orders' ? this.ordersSlot : this[`${kind}Slot`];
    return slot.updatedAt !== undefined && !slot.error && this.clock.now() - slot.updatedAt < ms;
  }

  /** Refreshes the given data; a refresh already under way for a kind is joined, never repeated. */
  refresh(kinds: readonly DataKind[], reason: RefreshReason): Promise<void> {
    if (!this.canRequest()) return Promise.resolve();
    return Promise.all(kinds.map((kind) => {
      let running = this.inflight.get(kind);
      if (!running) {
        running = this.load(kind, reason).finally(() => this.inflight.delete(kind));
        this.inflight.set(kind, running);
      }
      return running;
    })).then(() => undefined);
  }

  /** The full order from `GET /orders/{id}`, cached briefly so expanding and collapsing does not refetch. */
  async orderDetails(id: string, maxAgeMs = 30_000): Promise<Order> {
    const cached = this.detailCache.get(id);
    if (cached && this.clock.now() - cached.at < maxAgeMs) return cached.order;
    const epoch = this.epoch;
    try {
      const order = await this.api().getOrder(id, { signal: this.abort.signal, priority: 'user' });
      if (epoch === this.epoch) this.acceptOrder(order);
      return order;
    } catch (error) {
      throw this.handleFailure('details', error, 'user', epoch);
    }
  }

  /**
   * Sends one action. A second call for an order with an action under way is refused here, whatever its source
   * (menu, palette, a double click), so the server never gets the POST twice.
   */
  async runAction(id: string, action: OrderAction): Promise<ActionResult> {
    if (this.pendingActions.has(id)) {
      throw new ApiError('invalidRequest', 'An action is already under way for this order.', { code: 'action_pending' });
    }
    const epoch = this.epoch;
    this.setPending(id, { action, since: this.clock.now(), phase: 'sending', sawBusy: false });
    let result: ActionResult;
    try {
      result = await this.api().orderAction(id, action, { priority: 'user', signal: this.abort.signal });
    } catch (error) {
      if (epoch !== this.epoch) throw error;
      this.setPending(id, undefined);
      const failure = this.handleFailure('action', error, 'user', epoch);
      // A refusal often means our picture of the order is out of date.
      if (failure.kind === 'invalidRequest' || failure.kind === 'notFound') void this.pollOrder(id).catch(() => undefined);
      throw failure;
    }
    if (epoch !== this.epoch) return result;
    this.log('info', `${action} accepted for order ${id}`);
    const since = this.clock.now();
    this.setPending(id, { action, since, phase: 'settling', sawBusy: result.order?.state === 'busy' });
    if (result.order?.id === id) this.acceptOrder(result.order);
    this.poller.add(id, since);
    return result;
  }

  private async load(kind: DataKind, reason: RefreshReason): Promise<void> {
    const epoch = this.epoch;
    const signal = this.abort.signal;
    const options = { signal, priority: reason === 'user' ? 'user' as const : 'background' as const };
    this.setLoading(kind, true);
    try {
      const api = this.api();
      switch (kind) {
        case 'orders': {
          const orders = await api.listOrders(options);
          if (epoch !== this.epoch) return;
          this.ordersSlot = { updatedAt: this.clock.now(), loading: true };
          this.applyOrders(orders);
          break;
        }
        case 'balance': {
          const value = await api.getBalance(options);
          if (epoch === this.epoch) this.balanceSlot = { value, updatedAt: this.clock.now(), loading: true };
          break;
        }
        case 'account': {
          const value = await api.getAccount(options);
          if (epoch === this.epoch) this.accountSlot = { value, updatedAt: this.clock.now(), loading: true };
          break;
        }
        case 'invoices': {
          const value = await api.listInvoices(options);
          if (epoch === this.epoch) this.invoicesSlot = { value, updatedAt: this.clock.now(), loading: true };
          break;
        }
      }
      if (epoch === this.epoch) this.succeeded(kind);
    } catch (error) {
      const failure = this.handleFailure(kind, error, reason, epoch);
      if (epoch === this.epoch && failure.kind !== 'cancelled') this.setError(kind, failure);
    } finally {
      if (epoch === this.epoch) {
        this.setLoading(kind, false);
        this.updateState();
      }
    }
  }

  private applyOrders(orders: readonly Order[]): void {
    const change = this.orders.replace(orders);
    for (const [id, pending] of this.pendingActions) {
      const order = this.orders.get(id);
      if (!order) this.finishPending(id);
      else if (pending.phase === 'settling') this.checkSettled(id, order);
    }
    if (change) this.onDidChangeOrdersEmitter.fire(change);
  }

  private acceptOrder(order: Order): void {
    if (this.orders.update(order)) this.onDidChangeOrdersEmitter.fire({ ids: [order.id] });
    this.detailCache.set(order.id, { order, at: this.clock.now() });
    if (this.pendingActions.get(order.id)?.phase === 'settling') this.checkSettled(order.id, order);
  }

  private async pollOrder(id: string): Promise<void> {
    const epoch = this.epoch;
    try {
      const order = await this.api().getOrder(id, { signal: this.abort.signal });
      if (epoch === this.epoch) this.acceptOrder(order);
    } catch (error) {
      const failure = this.handleFailure('details', error, 'background', epoch);
      if (epoch !== this.epoch) return;
      if (failure.kind === 'notFound') {
        this.finishPending(id);
        void this.refresh(['orders'], 'background');
      } else if (failure.kind === 'unauthorized') {
        this.poller.clear();
      }
    }
  }

  private checkSettled(id: string, order: Order): void {
    const pending = this.pendingActions.get(id);
    if (!pending) return;
    const sawBusy = pending.sawBusy || order.state === 'busy';
    if (sawBusy !== pending.sawBusy) this.pendingActions.set(id, { ...pending, sawBusy });
    const verdict = settleVerdict(pending.action, order, this.clock.now() - pending.since, sawBusy);
    if (verdict === 'waiting') return;
    this.finishPending(id);
    if (verdict === 'gaveUp') {
      this.log('warn', `order ${id} was still changing after ${MAX_SETTLE_MS / 60_000} min; polling stopped`);
      return;
    }
    this.log('info', `order ${id} settled as ${order.statusText ?? order.state} after ${pending.action}`);
    this.onDidSettleEmitter.fire({ order, action: pending.action, asExpected: verdict === 'settled' });
  }

  private finishPending(id: string): void {
    this.poller.delete(id);
    this.setPending(id, undefined);
  }

  private setPending(id: string, pending: PendingAction | undefined): void {
    if (pending) this.pendingActions.set(id, pending);
    else if (!this.pendingActions.delete(id)) return;
    this.onDidChangeOrdersEmitter.fire({ ids: [id] });
  }

  private handleFailure(kind: Failure['kind'], caught: unknown, reason: RefreshReason, epoch: number): ApiError {
    const error = isApiError(caught) ? caught : new ApiError('badResponse', String(caught), { cause: caught });
    if (epoch !== this.epoch || error.kind === 'cancelled') return error;
    this.log(error.kind === 'unauthorized' ? 'warn' : 'error',
      `${kind} failed: ${error.kind}: ${error.message}${error.requestId ? ` (request id ${error.requestId})` : ''}`);
    if (error.kind === 'unauthorized' && error.code !== 'no_key') {
      this.keyRejected = error;
      this.poller.clear();
    }
    const firstInEpisode = this.failingKinds.size === 0;
    if (kind !== 'action') this.failingKinds.add(kind);
    this.onDidFailEmitter.fire({ kind, error, userInitiated: reason === 'user', firstInEpisode });
    this.updateState();
    return error;
  }

  private succeeded(kind: DataKind): void {
    this.failingKinds.delete(kind);
    this.keyRejected = undefined;
  }

  private setLoading(kind: DataKind, loading: boolean): void {
    if (kind === 'orders') this.ordersSlot = { ...this.ordersSlot, loading };
    else if (kind === 'balance') this.balanceSlot = { ...this.balanceSlot, loading };
    else if (kind === 'account') this.accountSlot = { ...this.accountSlot, loading };
    else this.invoicesSlot = { ...this.invoicesSlot, loading };
    this.onDidChangeDataEmitter.fire(kind);
  }

  private setError(kind: DataKind, error: ApiError): void {
    if (kind === 'orders') this.ordersSlot = { ...this.ordersSlot, error };
    else if (kind === 'balance') this.balanceSlot = { ...this.balanceSlot, error };
    else if (kind === 'account') this.accountSlot = { ...this.accountSlot, error };
    else this.invoicesSlot = { ...this.invoicesSlot, error };
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
    const slots = [this.ordersSlot, this.balanceSlot, this.accountSlot, this.invoicesSlot];
    if (this.ordersSlot.updatedAt !== undefined || this.balanceSlot.value || this.accountSlot.value || this.invoicesSlot.value) {
      return 'ready';
    }
    return slots.some((s) => s.error) && !slots.some((s) => s.loading) ? 'unreachable' : 'loading';
  }

  private updateState(): void {
    const state = this.computeState();
    if (state === this.currentState) return;
    this.currentState = state;
    this.onDidChangeStateEmitter.fire(state);
  }

  private api(): ApiClientLike {
    const settings = this.deps.settings();
    if (!this.client || this.clientBaseUrl !== settings.baseUrl) {
      this.disposeClient();
      this.client = this.createClient(this.deps.getKey);
      this.clientBaseUrl = settings.baseUrl;
    }
    return this.client;
  }

  private createClient(getKey: () => Promise<string | undefined> | string | undefined): ApiClientLike {
    const settings = this.deps.settings();
    const timeout = settings.requestTimeoutMs;
    return this.deps.createClient({
      baseUrl: settings.baseUrl,
      getKey,
      requestsPerMinute: settings.requestsPerMinute,
      timeouts: { headersMs: timeout, bodyMs: timeout, totalMs: timeout * 2, connectMs: Math.min(10_000, timeout) },
    });
  }

  private disposeClient(): void {
    const client = this.client;
    this.client = undefined;
    this.clientBaseUrl = undefined;
    if (client) void client.dispose().catch(() => undefined);
  }

  /** Forgets everything tied to the old key or server, and abandons the requests made for it. */
  private reset(): void {
    this.epoch++;
    this.abort.abort();
    this.abort = newAbortController();
    this.inflight.clear();
    this.poller.clear();
    this.pendingActions.clear();
    this.detailCache.clear();
    this.failingKinds.clear();
    this.keyRejected = undefined;
    this.ordersSlot = { loading: false };
    this.balanceSlot = { loading: false };
    this.accountSlot = { loading: false };
    this.invoicesSlot = { loading: false };
    const change = this.orders.replace([]);
    if (change) this.onDidChangeOrdersEmitter.fire(change);
    for (const kind of ['orders', 'balance', 'account', 'invoices'] as const) this.onDidChangeDataEmitter.fire(kind);
  }

  private teardown(): void {
    this.epoch++;
    this.abort.abort();
    this.disposeClient();
  }

  private log(level: 'info' | 'warn' | 'error', message: string): void {
    this.deps.log?.[level](message);
  }
}

function fingerprintOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** One signal cancels every request of a key or server; with a queue of them it has many listeners, by design. */
function newAbortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
