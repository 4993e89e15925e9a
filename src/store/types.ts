import type { ApiClient, ApiClientOptions } from '../api/ApiClient';
import { type Clock } from '../api/clock';
import { type ApiError } from '../api/errors';
import { type Listing, type OrderAction } from '../api/models';
import { type FieldMap } from '../api/normalise/pointers';

/** What the views show as a whole; drives the welcome content through the `hostingAccount.state` context key. */
export type ConnectionState = 'noBaseUrl' | 'badBaseUrl' | 'noKey' | 'loading' | 'invalidKey' | 'unreachable' | 'ready';

export type DataKind = 'orders' | 'balance' | 'invoices' | 'account';
export type RefreshReason = 'user' | 'background';

export interface Slot<T> {
  readonly value?: T;
  readonly updatedAt?: number;
  /** The last failure; cleared by the next success. With a value present, the value is stale. */
  readonly error?: ApiError;
  /** When that failure happened, so a background retry waits an interval after it. */
  readonly failedAt?: number;
  /** How many loads in a row failed: background reads of a datum that keeps failing back off. */
  readonly failedInARow?: number;
  readonly loading: boolean;
  /** For a list not read whole: how much of it is shown. */
  readonly coverage?: ListCoverage;
}

/**
 * A list that was not read whole: how many entries are shown, how many the server has, and what stopped the walk; or
 * a list of bare ids, and what became of them (`ids`).
 */
export interface ListCoverage {
  readonly shown: number;
  readonly total?: number;
  readonly stoppedBy?: Listing<unknown>['stoppedBy'];
  readonly ids?: IdListReading;
}

/**
 * A list that gave only ids (OVHcloud's style). Orders: each read at its single path; `failed` of them could not be
 * read and `notYet` were not read in this refresh (at most 100 are): both shown by id. Invoices: the API has no
 * single-invoice path, so `noDetails` — the list held `count` ids and nothing else.
 */
export interface IdListReading {
  readonly count: number;
  readonly failed: number;
  readonly notYet: number;
  readonly noDetails?: true;
}

/** Where the user asked for an action: the history says it. */
export const ACTION_SOURCES = ['menu', 'palette', 'bulk', 'task', 'assistant'] as const;
export type ActionSource = (typeof ACTION_SOURCES)[number];

export interface PendingAction {
  readonly action: OrderAction;
  readonly source?: ActionSource;
  readonly since: number;
  /** `sending` until the server accepts, then `settling` while the order is polled. */
  readonly phase: 'sending' | 'settling';
  readonly sawBusy: boolean;
}

export interface StoreSettings {
  readonly baseUrl: string;
  readonly requestsPerMinute: number;
  readonly requestTimeoutMs: number;
  /** The account's field map, already parsed (`parseFieldMap`); another map builds another client. */
  readonly fieldMap?: FieldMap;
}

/** The part of the API client the store uses; the client itself lives in the lazily loaded bundle. */
export type ApiClientLike = Pick<
  ApiClient,
  | 'getAccount'
  | 'listOrders'
  | 'getOrder'
  | 'orderAction'
  | 'getBalance'
  | 'listInvoices'
  | 'rateLimitStatus'
  | 'lastAnswer'
  | 'forgetAnswers'
  | 'close'
  | 'dispose'
>;

export interface StoreLog {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface StoreDeps {
  readonly createClient: (
    options: Pick<ApiClientOptions, 'baseUrl' | 'getKey' | 'requestsPerMinute' | 'timeouts' | 'onRequest' | 'fieldMap'>,
  ) => ApiClientLike;
  readonly getKey: () => Promise<string | undefined>;
  readonly settings: () => StoreSettings;
  readonly clock?: Clock;
  readonly log?: StoreLog;
}

export interface Failure {
  readonly kind: DataKind | 'action' | 'details';
  readonly error: ApiError;
  readonly userInitiated: boolean;
  /** False for the repeats of one outage, so background refreshes cannot stack up notifications. */
  readonly firstInEpisode: boolean;
}

/** Which orders changed; `undefined` ids means the list itself changed (added, removed or reordered). */
export interface OrdersChange {
  readonly ids?: readonly string[];
}
