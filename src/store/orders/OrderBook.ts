import { type Clock } from '../../api/clock';
import { ApiError } from '../../api/errors';
import { type Listing, type Order } from '../../api/models';
import { Emitter } from '../../util/Emitter';
import { Disposable } from '../../util/lifecycle';
import { type Failures } from '../Failures';
import { type CallOptions } from '../../api/ApiClient';
import { type DetailsBook, type KnownDetails, idsToRead, readListedIds } from './listedIds';
import { type Loaded, Resource, type ResourceDeps } from '../Resource';
import { type ApiClientLike, type ListCoverage, type OrdersChange, type RefreshReason } from '../types';
import { OrderList } from './OrderList';

/** Every fresh reading of an order is announced, for the actions to tell it settled. */
export class OrderBook extends Disposable {
  readonly list = new OrderList();
  readonly resource: Resource<readonly Order[]>;
  private readonly details = new Map<string, KnownDetails>();
  private readonly missed = new Map<string, { retryAt: number; waitMs: number }>();
  /** Then an order is polled at its single path, not by reading the list again. */
  listedByIds = false;
  /** Set by the actions: a settling order's details are read with every list. */
  settling: (id: string) => boolean = () => false;
  private readonly onDidChangeEmitter = this.register(new Emitter<OrdersChange>());
  readonly onDidChange = this.onDidChangeEmitter.event;
  private readonly onDidReadEmitter = this.register(new Emitter<readonly Order[]>());
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

  private async read(options: CallOptions): Promise<Loaded<readonly Order[]>> {
    const listing = await this.api().listOrders(options);
    const ids = listing.ids ?? [];
    this.listedByIds = ids.length > 0 && listing.items.length === 0;
    if (!ids.length) return listed(listing);
    const { session, clock } = this.deps;
    const generation = session.generation;
    const book: DetailsBook = {
      known: (id) => this.details.get(id),
      missed: (id) => this.missed.get(id),
      keep: (order) => {
        if (!session.isCurrent(generation)) return;
        this.details.set(order.id, { order, at: clock.now() });
        this.missed.delete(order.id);
      },
      miss: (id) => {
        const waitMs = Math.min(10 * 60_000, 2 * (book.missed(id)?.waitMs ?? 30_000));
        if (session.isCurrent(generation)) this.missed.set(id, { retryAt: clock.now() + waitMs, waitMs });
      },
    };
    const user = options.priority === 'user' || options.urgency?.priority === 'user';
    const toRead = idsToRead(ids, book, clock.now(), { user, settling: this.settling });
    const { orders, reading } = await readListedIds(ids, this.api(), options, book, toRead);
    const coverage = listed(listing).coverage;
    return { value: [...listing.items, ...orders], coverage: { ...coverage, shown: orders.length, ids: reading } };
  }

  get clock(): Clock {
    return this.deps.clock;
  }

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

  /** The single-order answer often has more fields than the list's, which is no change. */
  accept(order: Order): void {
    if (this.list.isAmbiguous(order.id)) return;
    if (this.list.updateSummary(order)) this.onDidChangeEmitter.fire({ ids: [order.id] });
    this.details.set(order.id, { order, at: this.deps.clock.now() });
    this.missed.delete(order.id);
    this.onDidReadEmitter.fire([order]);
  }

  redraw(id: string): void {
    this.onDidChangeEmitter.fire({ ids: [id] });
  }

  reset(): void {
    this.resource.reset();
    this.details.clear();
    this.missed.clear();
    this.listedByIds = false;
    const change = this.list.replace([]);
    if (change) this.onDidChangeEmitter.fire(change);
  }

  private replace(orders: readonly Order[]): void {
    const change = this.list.replace(orders);
    for (const id of this.list.ambiguousIds) this.details.delete(id);
    // An action stays pending whatever one list says (a page may miss its order): forgetting it would let a second
    // POST through. Its poll ends it if the order is gone.
    this.onDidReadEmitter.fire(this.list.all);
    if (change) this.onDidChangeEmitter.fire(change);
  }
}

export function listed<T>(listing: Listing<T>): Loaded<readonly T[]> {
  const { items, total, stoppedBy } = listing;
  const coverage: ListCoverage | undefined =
    total === undefined && stoppedBy === undefined ? undefined : { shown: items.length, total, stoppedBy };
  return { value: items, coverage };
}

export function ambiguousId(): ApiError {
  return new ApiError('invalidRequest', 'Several orders in the list have this id; nothing was sent.', {
    reason: { rule: 'orderIdAmbiguous' },
    maybeSent: false,
  });
}
