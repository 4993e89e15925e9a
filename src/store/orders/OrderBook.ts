import { type Clock } from '../../api/clock';
import { ApiError } from '../../api/errors';
import { type Listing, type Order } from '../../api/models';
import { Emitter } from '../../util/Emitter';
import { Disposable } from '../../util/lifecycle';
import { type Failures } from '../Failures';
import { type CallOptions } from '../../api/ApiClient';
import { type KnownDetails, idsToRead, readListedIds } from './listedIds';
import { type Loaded, Resource, type ResourceDeps } from '../Resource';
import { type ApiClientLike, type ListCoverage, type OrdersChange, type RefreshReason } from '../types';
import { OrderList } from './OrderList';

/**
 * The orders: the list (a Resource like every other datum), the index the tree reads, and a short-lived cache of
 * single orders read with `GET /orders/{id}`. Every fresh reading of an order is announced, so actions under way can
 * tell when it has settled.
 */
export class OrderBook extends Disposable {
  readonly list = new OrderList();
  readonly resource: Resource<readonly Order[]>;
  private readonly details = new Map<string, KnownDetails>();
  /** Whether the last list gave only ids: then an order is read at its single path, not by reading the list again. */
  listedByIds = false;
  /** Whether an order's action is settling: its details are read with every list (the actions set it). */
  settling: (id: string) => boolean = () => false;
  private readonly onDidChangeEmitter = this.register(new Emitter<OrdersChange>());
  readonly onDidChange = this.onDidChangeEmitter.event;
  private readonly onDidReadEmitter = this.register(new Emitter<readonly Order[]>());
  /** Orders just read from the server, whether or not anything the tree shows changed. */
  readonly onDidRead = this.onDidReadEmitter.event;

  constructor(
    private readonly api: () => ApiClientLike,
    private readonly deps: ResourceDeps & { readonly failures: Failures },
  ) {
    super();
    this.resource = new Resource(
      'orders',
      (options) => this.read(options),
      deps,
      (orders) => this.replace(orders),
    );
  }

  /** The list; a list of ids with each order read at its single path (see listedIds.ts). */
  private async read(options: CallOptions): Promise<Loaded<readonly Order[]>> {
    const listing = await this.api().listOrders(options);
    const ids = listing.ids ?? [];
    this.listedByIds = ids.length > 0 && listing.items.length === 0;
    if (!ids.length) return listed(listing);
    const { session, clock } = this.deps;
    const generation = session.generation;
    const known = (id: string): KnownDetails | undefined => this.details.get(id);
    const user = options.priority === 'user' || options.urgency?.priority === 'user';
    const toRead = idsToRead(ids, known, clock.now(), { user, settling: this.settling });
    const keep = (order: Order): void => {
      if (session.isCurrent(generation)) this.details.set(order.id, { order, at: clock.now() });
    };
    const { orders, reading } = await readListedIds(ids, this.api(), options, known, toRead, keep);
    const coverage = listed(listing).coverage;
    return { value: [...listing.items, ...orders], coverage: { ...coverage, shown: orders.length, ids: reading } };
  }

  get clock(): Clock {
    return this.deps.clock;
  }

  /**
   * The full order, cached for `maxAgeMs` so expanding and collapsing does not refetch. Refused, without a request,
   * for an id several orders carry: the answer could be about any of them.
   */
  async get(id: string, maxAgeMs: number, reason: RefreshReason): Promise<Order> {
    if (this.list.isAmbiguous(id)) throw ambiguousId();
    const cached = this.details.get(id);
    if (cached && this.deps.clock.now() - cached.at < maxAgeMs) return cached.order;
    const { session } = this.deps;
    const generation = session.generation;
    try {
      const order = await this.api().getOrder(id, { signal: session.signal, priority: reason });
      if (session.isCurrent(generation)) this.accept(order);
      return order;
    } catch (error) {
      throw this.deps.failures.record('details', error, reason, generation);
    }
  }

  /**
   * One order from `GET /orders/{id}` (a poll, details, an action's answer). It updates the list only where the tree
   * shows a difference: the single-order answer often has more fields than the list's, which is no change.
   */
  accept(order: Order): void {
    // An answer about an id several orders carry cannot be told apart: it is neither cached nor announced.
    if (this.list.isAmbiguous(order.id)) return;
    if (this.list.updateSummary(order)) this.onDidChangeEmitter.fire({ ids: [order.id] });
    this.details.set(order.id, { order, at: this.deps.clock.now() });
    this.onDidReadEmitter.fire([order]);
  }

  /** Something shown on these orders changed outside the data (an action began or ended). */
  redraw(id: string): void {
    this.onDidChangeEmitter.fire({ ids: [id] });
  }

  /** Forgets every order: they belonged to another key or server. */
  reset(): void {
    this.resource.reset();
    this.details.clear();
    this.listedByIds = false;
    const change = this.list.replace([]);
    if (change) this.onDidChangeEmitter.fire(change);
  }

  private replace(orders: readonly Order[]): void {
    const change = this.list.replace(orders);
    for (const id of this.list.ambiguousIds) this.details.delete(id);
    // An action stays pending whatever one list says: an order missing from a page (or a list cut short) may still
    // have its POST under way, and forgetting it would let a second one through. Its poll ends it if it is gone.
    this.onDidReadEmitter.fire(this.list.all);
    if (change) this.onDidChangeEmitter.fire(change);
  }
}

/** A list as a Resource holds it: the entries, and how much of the list they are when a bound stopped the reading. */
export function listed<T>(listing: Listing<T>): Loaded<readonly T[]> {
  const { items, total, stoppedBy } = listing;
  const coverage: ListCoverage | undefined =
    total === undefined && stoppedBy === undefined ? undefined : { shown: items.length, total, stoppedBy };
  return { value: items, coverage };
}

/** The typed refusal of a request about an id several orders carry; nothing was sent. */
export function ambiguousId(): ApiError {
  return new ApiError('invalidRequest', 'Several orders in the list have this id; nothing was sent.', {
    reason: { rule: 'orderIdAmbiguous' },
    maybeSent: false,
  });
}
