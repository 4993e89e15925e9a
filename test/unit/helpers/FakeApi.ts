import { type CallOptions } from '../../../src/api/ApiClient';
import { sleep } from '../../../src/api/clock';
import { ApiError, type ApiErrorFields, type ApiErrorKind, cancelledError } from '../../../src/api/errors';
import {
  type Account,
  type ActionResult,
  type Balance,
  type Invoice,
  type Listing,
  type Order,
  type OrderAction,
  type OrderState,
} from '../../../src/api/models';
import { Scheduler } from '../../../src/store/Scheduler';
import { Store } from '../../../src/store/Store';
import { type ApiClientLike, type StoreDeps, type StoreSettings } from '../../../src/store/types';
import { type FakeClock } from './FakeClock';
import { plain, serverText } from '../../../src/util/serverText';

/**
 * An in-memory stand-in for our own API client, for testing the store's logic: deterministic, no sockets, time only
 * on the fake clock. It keeps a small server state (orders that move through a busy state after an action), checks
 * the key, and records every call. Tests script it with rules: a delay on the fake clock, a failure of a given kind,
 * or an answer of their own. How requests travel (HTTP, retries, the limiter) is the real client's business and is
 * tested against the mock API in the client's own tests.
 */

/** What each method of the client answers. */
export interface Answers {
  getAccount: Account;
  listOrders: Listing<Order>;
  getOrder: Order;
  orderAction: ActionResult;
  getBalance: Balance;
  listInvoices: Listing<Invoice>;
}
export type Method = keyof Answers;

/** One call the store made, as the fake saw it. */
export interface FakeCall {
  readonly method: Method;
  /** Which client made it: a new one is built after the settings change. */
  readonly client: number;
  readonly id?: string;
  readonly action?: OrderAction;
  /** The key the client read when the call started. */
  readonly key?: string;
  readonly priority?: CallOptions['priority'];
  readonly startedAt: number;
  /** How it ended: undefined while under way. */
  outcome?: 'answered' | ApiErrorKind;
  endedAt?: number;
}

/** A scripted behaviour for the calls it matches; the first matching rule with uses left applies. */
export interface Rule<M extends Method = Method> {
  readonly method?: M;
  /** Only calls about this order. */
  readonly id?: string;
  /** How many calls it applies to; forever when absent. */
  readonly times?: number;
  /** Time on the fake clock before the answer (or the failure). */
  readonly delayMs?: number;
  /** A failure of this typed kind (with its fields), or this very error. */
  readonly fail?: ApiErrorKind | ApiError;
  readonly failFields?: ApiErrorFields;
  /** An answer of the test's own instead of the fake server's. */
  readonly answer?: (call: FakeCall) => Answers[M];
  /**
   * The answer arrives even after the caller's signal was aborted: a reply already on its way, which the store must
   * drop by itself. Without this, an abort ends the call at once with a `cancelled` error, as the real client does.
   */
  readonly ignoresAbort?: boolean;
}

interface LiveRule extends Rule {
  left: number;
}

/** The orders a fresh fake starts with: two running, two stopped, one busy. */
export function demoOrders(): Order[] {
  const order = (id: string, state: OrderState, statusText: string): Order => ({
    id,
    label: serverText(`server-${id}`),
    state,
    statusText: serverText(statusText),
    raw: { id: Number(id), name: `server-${id}`, status: statusText },
  });
  return [
    order('1001', 'running', 'running'),
    order('1002', 'running', 'running'),
    order('1003', 'stopped', 'stopped'),
    order('1004', 'stopped', 'stopped'),
    order('1005', 'busy', 'starting'),
  ];
}

export const FAKE_KEY = 'fake-0123456789abcdef0123456789abcdef';

const ACTION_RULES: Readonly<Record<OrderAction, { from: readonly OrderState[]; via: string; to: OrderState }>> = {
  start: { from: ['stopped'], via: 'starting', to: 'running' },
  stop: { from: ['running'], via: 'stopping', to: 'stopped' },
  restart: { from: ['running'], via: 'restarting', to: 'running' },
  reinstall: { from: ['running', 'stopped'], via: 'reinstalling', to: 'running' },
};

export class FakeApi {
  /** The server's orders, in list order; tests may change them between calls. */
  orders: Order[] = demoOrders();
  balance: Balance = { amount: 42.5, currency: 'EUR', raw: { balance: 42.5, currency: 'EUR' } };
  account: Account = { id: serverText('acc-1'), name: serverText('Demo'), raw: { id: 'acc-1', name: 'Demo' } };
  invoices: Invoice[] = [{ id: '38', status: 'paid', raw: { id: 38, status: 'paid' } }];
  /** The keys the server accepts. */
  keys: string[] = [FAKE_KEY];
  /** How long an accepted action keeps its order busy, on the fake clock. */
  transitionMs = 3_000;
  readonly calls: FakeCall[] = [];
  private readonly rules: LiveRule[] = [];
  private clients = 0;

  /** How many clients were built so far. */
  get clientsBuilt(): number {
    return this.clients;
  }
  /** Clients disposed or closed, by number. */
  readonly ended = new Set<number>();

  constructor(private readonly clock: FakeClock) {}

  /** Adds a scripted behaviour; returns a function that removes it. */
  on<M extends Method>(rule: Rule<M>): () => void {
    const live: LiveRule = { ...(rule as Rule), left: rule.times ?? Infinity };
    this.rules.push(live);
    return () => void this.rules.splice(this.rules.indexOf(live), 1);
  }

  clearRules(): void {
    this.rules.splice(0);
  }

  /** The calls of one method (all calls without one), optionally about one order. */
  callsTo(method?: Method, id?: string): FakeCall[] {
    return this.calls.filter((c) => (!method || c.method === method) && (id === undefined || c.id === id));
  }

  /** Forgets the calls seen so far. */
  clearCalls(): void {
    this.calls.splice(0);
  }

  /** The store's `createClient`: each client reads its key per call, as the real one does. */
  readonly createClient: StoreDeps['createClient'] = (options) => this.client(options.getKey);

  client(getKey: () => Promise<string | undefined> | string | undefined): ApiClientLike {
    const number = ++this.clients;
    const controller = new AbortController();
    const call = <M extends Method>(
      method: M,
      options: CallOptions | undefined,
      about: { id?: string; action?: OrderAction },
      serve: () => Answers[M],
    ): Promise<Answers[M]> => this.call(number, controller.signal, getKey, method, options, about, serve);
    return {
      getAccount: (o) => call('getAccount', o, {}, () => this.account),
      listOrders: (o) => call('listOrders', o, {}, () => ({ items: [...this.orders] })),
      getOrder: (id, o) => call('getOrder', o, { id }, () => this.order(id)),
      orderAction: (id, action, o) => call('orderAction', o, { id, action }, () => this.act(id, action)),
      getBalance: (o) => call('getBalance', o, {}, () => this.balance),
      listInvoices: (o) => call('listInvoices', o, {}, () => ({ items: [...this.invoices] })),
      rateLimitStatus: () => undefined,
      lastAnswer: () => undefined,
      forgetAnswers: () => undefined,
      close: () => {
        this.ended.add(number);
        return Promise.resolve();
      },
      dispose: () => {
        this.ended.add(number);
        controller.abort(cancelledError());
        return Promise.resolve();
      },
    };
  }

  /** Sets an order's state on the server, as if changed elsewhere. */
  setState(id: string, state: OrderState, statusText: string = state): void {
    this.orders = this.orders.map((o) =>
      o.id === id ? { ...o, state, statusText: serverText(statusText), raw: { ...o.raw, status: statusText } } : o,
    );
  }

  private async call<M extends Method>(
    client: number,
    clientSignal: AbortSignal,
    getKey: () => Promise<string | undefined> | string | undefined,
    method: M,
    options: CallOptions | undefined,
    about: { id?: string; action?: OrderAction },
    serve: () => Answers[M],
  ): Promise<Answers[M]> {
    const key = await getKey();
    const record: FakeCall = {
      method,
      client,
      ...about,
      key,
      priority: options?.priority,
      startedAt: this.clock.now(),
    };
    this.calls.push(record);
    const end = (outcome: FakeCall['outcome']): void => {
      record.outcome = outcome;
      record.endedAt = this.clock.now();
    };
    try {
      // A client that was let go takes no new call (it is recorded, so a test sees that it was asked).
      if (this.ended.has(client)) throw cancelledError({ method: verb(method) });
      if (!key) throw new ApiError('noKey', 'No API key is set.');
      const rule = this.rules.find(
        (r) => r.left > 0 && (!r.method || r.method === method) && (r.id === undefined || r.id === about.id),
      );
      if (rule) rule.left--;
      const signal = rule?.ignoresAbort ? undefined : AbortSignal.any([clientSignal, ...optionalSignal(options)]);
      if (signal?.aborted) throw cancelledError();
      if (rule?.delayMs) await sleep(this.clock, rule.delayMs, signal).catch(() => Promise.reject(cancelledError()));
      // The key is checked when the server answers, as a key revoked meanwhile would be.
      if (!this.keys.includes(key)) {
        throw new ApiError('unauthorized', 'Invalid API key (HTTP 401)', { status: 401, code: 'unauthorized' });
      }
      if (rule?.fail !== undefined) {
        throw rule.fail instanceof ApiError
          ? rule.fail
          : new ApiError(rule.fail, `scripted ${rule.fail}`, { method: verb(method), ...rule.failFields });
      }
      const answer = rule?.answer ? (rule.answer as (call: FakeCall) => Answers[M])(record) : serve();
      end('answered');
      return answer;
    } catch (error) {
      end(error instanceof ApiError ? error.kind : 'badResponse');
      throw error;
    }
  }

  private order(id: string): Order {
    const order = this.orders.find((o) => o.id === id);
    if (!order) throw new ApiError('notFound', `Order ${id} not found (HTTP 404)`, { status: 404 });
    return order;
  }

  /** The fake server's action rules: refused unless the order is in a state it can leave; busy for transitionMs. */
  private act(id: string, action: OrderAction): ActionResult {
    const order = this.order(id);
    const rule = ACTION_RULES[action];
    if (!rule.from.includes(order.state)) {
      throw new ApiError(
        'invalidRequest',
        `Order ${id} is ${order.statusText === undefined ? order.state : plain(order.statusText)}; cannot ${action} it`,
        {
          status: 409,
          code: order.state === 'busy' ? 'action_in_progress' : 'invalid_state',
        },
      );
    }
    this.setState(id, 'busy', rule.via);
    this.clock.setTimeout(() => {
      const now = this.orders.find((o) => o.id === id)?.statusText;
      if (now !== undefined && plain(now) === rule.via) this.setState(id, rule.to);
    }, this.transitionMs);
    return { order: this.order(id), message: serverText(`${action} accepted`) };
  }
}

function verb(method: Method): string {
  return method === 'orderAction' ? 'POST' : 'GET';
}

function optionalSignal(options: CallOptions | undefined): AbortSignal[] {
  return options?.signal ? [options.signal] : [];
}

/** A store wired to a fake API on the fake clock, as the extension wires it to the real client. */
export function storeOnFake(
  clock: FakeClock,
  overrides: Partial<StoreSettings> = {},
  options: { readonly settlingPolls?: boolean; readonly guard?: StoreDeps['guard'] } = {},
): { store: Store; api: FakeApi; key: { value: string | undefined } } {
  const api = new FakeApi(clock);
  const key = { value: FAKE_KEY as string | undefined };
  const store = new Store({
    createClient: api.createClient,
    getKey: () => Promise.resolve(key.value),
    settings: () => ({
      baseUrl: 'https://api.example.test',
      requestsPerMinute: 100,
      requestTimeoutMs: 5_000,
      ...overrides,
    }),
    clock,
    guard: options.guard,
  });
  if (options.settlingPolls !== false) settlingOnly(store, clock);
  return { store, api, key };
}

/**
 * The account's scheduler as it runs with the window in the background: it reads nothing but the polls of orders
 * settling after an action, which is what a store test of actions needs (a test of the schedule makes its own).
 */
export function settlingOnly(store: Store, clock: FakeClock): Scheduler {
  const scheduler = new Scheduler(store, { refreshSeconds: 0, watchMinutes: 0 }, clock);
  scheduler.setVisibility({ ordersVisible: false, invoicesVisible: false, focused: false });
  return scheduler;
}
