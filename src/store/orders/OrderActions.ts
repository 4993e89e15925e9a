import { type ActionResult, type Order, type OrderAction } from '../../api/models';
import { Emitter } from '../../util/Emitter';
import { Disposable } from '../../util/lifecycle';
import { MAX_SETTLE_MS, settleVerdict } from './orderSettling';
import { SettlingPoller } from './SettlingPoller';
import { ActionUnderWay } from '../errors';
import { type Failures } from '../Failures';
import { type Session } from '../Session';
import { type ActionSource, type ApiClientLike, type PendingAction, type StoreDeps, type StoreLog } from '../types';
import { type ApiError } from '../../api/errors';
import { plain, type ServerText } from '../../util/serverText';
import { ambiguousId, type OrderBook } from './OrderBook';
import { byIdOnly } from './listedIds';

export interface Settled {
  readonly order: Order;
  readonly action: OrderAction;
  readonly asExpected: boolean;
  /** `unreadable`: the polls' answers could not be read; `order` is as the list then showed it. */
  readonly outcome: 'asExpected' | 'otherState' | 'unreadable';
  readonly source?: ActionSource;
  readonly ms: number;
}

export interface Sent {
  readonly id: string;
  readonly label?: ServerText;
  readonly action: OrderAction;
  readonly source?: ActionSource;
  readonly error?: ApiError;
}

/** More unreadable polls would say nothing new. */
export const MAX_UNREADABLE_POLLS = 3;

/** Lists this long usually come in one page. */
const ONE_PAGE = 100;

export class OrderActions extends Disposable {
  private readonly pending = new Map<string, PendingAction>();
  private readonly unreadable = new Map<string, number>();
  readonly poller: SettlingPoller;
  private readonly onDidSettleEmitter = this.register(new Emitter<Settled>());
  readonly onDidSettle = this.onDidSettleEmitter.event;
  private readonly onDidSendEmitter = this.register(new Emitter<Sent>());
  readonly onDidSend = this.onDidSendEmitter.event;

  constructor(
    private readonly session: Session,
    private readonly api: () => ApiClientLike,
    private readonly orders: OrderBook,
    private readonly failures: Failures,
    private readonly log?: StoreLog,
    private readonly guard?: StoreDeps['guard'],
  ) {
    super();
    const hooks = {
      pollOne: (id: string) => this.poll(id),
      pollAll: () =>
        orders.list.size <= ONE_PAGE && !orders.listedByIds ? orders.resource.refresh('background') : undefined,
      gaveUp: (id: string) => this.giveUp(id),
    };
    this.poller = this.register(new SettlingPoller(hooks, orders.clock));
    this.register(
      orders.onDidRead((read) => {
        for (const order of read) {
          if (!this.pending.has(order.id)) continue;
          if (order.duplicateId) this.abandonAmbiguous(order.id);
          else this.observe(order);
        }
      }),
    );
    orders.settling = (id) => this.pending.get(id)?.phase === 'settling';
    this.register(failures.onDidRejectKey(() => this.abandonAll()));
  }

  get(id: string): PendingAction | undefined {
    return this.pending.get(id);
  }

  /** A double click never sends the POST twice. */
  async run(id: string, action: OrderAction, source?: ActionSource): Promise<ActionResult> {
    if (this.orders.list.isAmbiguous(id)) throw ambiguousId();
    if (this.pending.has(id)) throw new ActionUnderWay(id);
    await this.guard?.(this.orders.list.get(id) ?? byIdOnly(id, 'notYet'), action, source);
    // Another action may have started while the question was open.
    if (this.pending.has(id)) throw new ActionUnderWay(id);
    const { session, orders } = this;
    const clock = orders.clock;
    const generation = session.generation;
    const label = orders.list.get(id)?.label;
    this.set(id, { action, source, since: clock.now(), phase: 'sending', sawBusy: false });
    let result: ActionResult;
    const call = session.userCall();
    try {
      result = await this.api().orderAction(id, action, { priority: 'user', signal: call.signal, onWait: call.onWait });
    } catch (error) {
      if (!session.isCurrent(generation)) throw error;
      this.set(id, undefined);
      const failure = this.failures.record('action', error, 'user', generation);
      this.onDidSendEmitter.fire({ id, label, action, source, error: failure });
      // A refusal often means our picture of the order is out of date.
      if (failure.kind === 'invalidRequest' || failure.kind === 'notFound') void this.poll(id);
      throw failure;
    } finally {
      call.end();
    }
    if (!session.isCurrent(generation)) return result;
    this.log?.info(`${action} accepted for order ${id}${source ? ` (${source})` : ''}`);
    this.onDidSendEmitter.fire({ id, label, action, source });
    const since = clock.now();
    this.set(id, { action, source, since, phase: 'settling', sawBusy: result.order?.state === 'busy' });
    // The answer may already settle the action.
    if (result.order?.id === id) orders.accept(result.order);
    if (this.pending.get(id)?.phase === 'settling') this.poller.add(id, since);
    return result;
  }

  private observe(order: Order): void {
    const pending = this.pending.get(order.id);
    if (pending?.phase !== 'settling') return;
    const sawBusy = pending.sawBusy || order.state === 'busy';
    if (sawBusy !== pending.sawBusy) this.pending.set(order.id, { ...pending, sawBusy });
    const ms = this.orders.clock.now() - pending.since;
    const verdict = settleVerdict(pending.action, order, ms, sawBusy);
    if (verdict === 'waiting') return;
    if (verdict === 'gaveUp') return this.giveUp(order.id);
    this.forget(order.id);
    // The log bounds every line (log.ts).
    const word = order.statusText === undefined ? order.state : plain(order.statusText);
    this.log?.info(`order ${order.id} settled as ${word} after ${pending.action}`);
    const { action, source } = pending;
    const asExpected = verdict === 'settled';
    const outcome = asExpected ? 'asExpected' : 'otherState';
    this.onDidSettleEmitter.fire({ order, action, asExpected, outcome, source, ms });
  }

  /** No answer can say which of them settled. */
  private abandonAmbiguous(id: string): void {
    this.log?.warn(`order ${id}: several orders now carry this id; the action under way is no longer followed`);
    this.forget(id);
  }

  private giveUp(id: string): void {
    this.log?.warn(`order ${id} was still changing after ${MAX_SETTLE_MS / 60_000} min; polling stopped`);
    this.forget(id);
  }

  private forget(id: string): void {
    this.poller.delete(id);
    this.unreadable.delete(id);
    this.set(id, undefined);
  }

  /** The list is read once more and told, as unread unless it shows the state aimed for. */
  private async giveUpUnreadable(id: string, generation: number): Promise<void> {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.log?.warn(`order ${id}: ${MAX_UNREADABLE_POLLS} answers about it could not be read; polling stopped`);
    this.forget(id);
    await this.orders.resource.refresh('background');
    const order = this.orders.list.get(id);
    if (!order || !this.session.isCurrent(generation)) return;
    const { action, source, since } = pending;
    const ms = this.orders.clock.now() - since;
    // A restart's "running" proves nothing unless busy was seen or the grace has passed: the shared verdict says so.
    const asExpected = settleVerdict(action, order, ms, pending.sawBusy || order.state === 'busy') === 'settled';
    const outcome = asExpected ? 'asExpected' : 'unreadable';
    this.onDidSettleEmitter.fire({ order, action, asExpected, outcome, source, ms });
  }

  abandonAll(): void {
    this.poller.clear();
    this.unreadable.clear();
    for (const id of [...this.pending.keys()]) this.set(id, undefined);
  }

  /** Silently: the orders themselves are gone. */
  clear(): void {
    this.poller.clear();
    this.pending.clear();
    this.unreadable.clear();
  }

  private async poll(id: string): Promise<void> {
    const { session } = this;
    const generation = session.generation;
    try {
      const order = await this.api().getOrder(id, { signal: session.signal });
      this.unreadable.delete(id);
      if (session.isCurrent(generation)) this.orders.accept(order);
    } catch (error) {
      const failure = this.failures.record('details', error, 'background', generation);
      if (!session.isCurrent(generation)) return;
      if (failure.kind === 'notFound') {
        this.forget(id);
        void this.orders.resource.refresh('background');
      } else if (failure.kind === 'badResponse' && this.pending.get(id)?.phase === 'settling') {
        const count = (this.unreadable.get(id) ?? 0) + 1;
        this.unreadable.set(id, count);
        if (count >= MAX_UNREADABLE_POLLS) await this.giveUpUnreadable(id, generation);
      }
    }
  }

  private set(id: string, pending: PendingAction | undefined): void {
    if (pending) this.pending.set(id, pending);
    else if (!this.pending.delete(id)) return;
    this.orders.redraw(id);
  }
}
