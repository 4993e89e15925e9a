import { type Clock } from '../api/clock';
import { ApiError } from '../api/errors';
import { type ActionResult, type Order, type OrderAction } from '../api/models';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';
import { MAX_SETTLE_MS, settleVerdict } from './orderSettling';
import { SettlingPoller } from './SettlingPoller';
import { type ApiClientLike, type Failure, type PendingAction, type RefreshReason } from './types';
import { type UserCall } from './UserWaits';

export interface Settled {
  readonly order: Order;
  readonly action: OrderAction;
  /** False when the order ended in another state than the action aims for (a start that failed, say). */
  readonly asExpected: boolean;
}

/** What the actions need from the store around them. */
export interface ActionHost {
  readonly clock: Clock;
  api(): ApiClientLike;
  /** The current generation of requests: answers for an older one are dropped. */
  epoch(): number;
  signal(): AbortSignal;
  /** A signal and wait reporter for one request the user is waiting on. */
  userCall(): UserCall;
  fail(kind: Failure['kind'], error: unknown, reason: RefreshReason, epoch: number): ApiError;
  /** Fresh data about one order, from a poll or an action's answer. */
  accept(order: Order): void;
  refreshOrders(): Promise<void>;
  /** How many orders the list has: a long list is not worth reading to learn about a few. */
  orderCount(): number;
  changed(id: string): void;
  log(level: 'info' | 'warn', message: string): void;
}

/** Lists this long usually come in one page; longer ones would cost more to read than polling orders one by one. */
const ONE_PAGE = 100;

/**
 * The actions under way: each order has at most one, whatever asks for it. After the server accepts one, only that
 * order is polled (backing off) until its state settles, or for at most MAX_SETTLE_MS.
 */
export class OrderActions extends Disposable {
  private readonly pending = new Map<string, PendingAction>();
  private readonly poller: SettlingPoller;
  private readonly onDidSettleEmitter = this.register(new Emitter<Settled>());
  readonly onDidSettle = this.onDidSettleEmitter.event;

  constructor(private readonly host: ActionHost) {
    super();
    this.poller = this.register(new SettlingPoller({
      pollOne: (id) => this.poll(id),
      pollAll: () => (host.orderCount() <= ONE_PAGE ? host.refreshOrders() : undefined),
      gaveUp: (id) => {
        host.log('warn', `order ${id} was still changing after ${MAX_SETTLE_MS / 60_000} min; polling stopped`);
        this.forget(id);
      },
    }, host.clock));
  }

  get(id: string): PendingAction | undefined {
    return this.pending.get(id);
  }

  /**
   * Sends one action. A second call for an order with an action under way is refused here, whatever its source
   * (menu, palette, a double click), so the server never gets the POST twice.
   */
  async run(id: string, action: OrderAction): Promise<ActionResult> {
    if (this.pending.has(id)) {
      throw new ApiError('invalidRequest', 'An action is already under way for this order.', { code: 'action_pending' });
    }
    const { clock } = this.host;
    const epoch = this.host.epoch();
    this.set(id, { action, since: clock.now(), phase: 'sending', sawBusy: false });
    let result: ActionResult;
    const call = this.host.userCall();
    try {
      result = await this.host.api().orderAction(id, action, { priority: 'user', signal: call.signal, onWait: call.onWait });
    } catch (error) {
      if (epoch !== this.host.epoch()) throw error;
      this.set(id, undefined);
      const failure = this.host.fail('action', error, 'user', epoch);
      // A refusal often means our picture of the order is out of date.
      if (failure.kind === 'invalidRequest' || failure.kind === 'notFound') void this.poll(id);
      throw failure;
    } finally {
      call.end();
    }
    if (epoch !== this.host.epoch()) return result;
    this.host.log('info', `${action} accepted for order ${id}`);
    const since = clock.now();
    this.set(id, { action, since, phase: 'settling', sawBusy: result.order?.state === 'busy' });
    // The answer may already show the final state, which settles the action before any poll.
    if (result.order?.id === id) this.host.accept(result.order);
    if (this.pending.get(id)?.phase === 'settling') this.poller.add(id, since);
    return result;
  }

  /** Fresh data about an order: settles its action when the state says it is done. */
  observe(order: Order): void {
    const pending = this.pending.get(order.id);
    if (pending?.phase !== 'settling') return;
    const sawBusy = pending.sawBusy || order.state === 'busy';
    if (sawBusy !== pending.sawBusy) this.pending.set(order.id, { ...pending, sawBusy });
    const verdict = settleVerdict(pending.action, order, this.host.clock.now() - pending.since, sawBusy);
    if (verdict === 'waiting') return;
    this.forget(order.id);
    if (verdict === 'gaveUp') {
      this.host.log('warn', `order ${order.id} was still changing after ${MAX_SETTLE_MS / 60_000} min; polling stopped`);
      return;
    }
    this.host.log('info', `order ${order.id} settled as ${order.statusText ?? order.state} after ${pending.action}`);
    this.onDidSettleEmitter.fire({ order, action: pending.action, asExpected: verdict === 'settled' });
  }

  /** The ids with an action under way, to check against a new list of orders. */
  ids(): string[] {
    return [...this.pending.keys()];
  }

  forget(id: string): void {
    this.poller.delete(id);
    this.set(id, undefined);
  }

  /** Forgets every action under way, redrawing their orders (the key was rejected: no poll can succeed). */
  abandonAll(): void {
    this.poller.clear();
    for (const id of this.ids()) this.set(id, undefined);
  }

  /** Forgets everything silently: the orders themselves are gone (a new key or server). */
  clear(): void {
    this.poller.clear();
    this.pending.clear();
  }

  private async poll(id: string): Promise<void> {
    const epoch = this.host.epoch();
    try {
      const order = await this.host.api().getOrder(id, { signal: this.host.signal() });
      if (epoch === this.host.epoch()) this.host.accept(order);
    } catch (error) {
      const failure = this.host.fail('details', error, 'background', epoch);
      if (epoch === this.host.epoch() && failure.kind === 'notFound') {
        this.forget(id);
        void this.host.refreshOrders();
      }
    }
  }

  private set(id: string, pending: PendingAction | undefined): void {
    if (pending) this.pending.set(id, pending);
    else if (!this.pending.delete(id)) return;
    this.host.changed(id);
  }
}
