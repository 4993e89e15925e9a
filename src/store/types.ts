import type { ApiClient, ApiClientOptions } from '../api/ApiClient';
import { type Clock } from '../api/clock';
import { type ApiError } from '../api/errors';
import { type Listing, type Order, type OrderAction } from '../api/models';
import { type FieldMap } from '../api/normalise/pointers';

/** Drives the welcome content through the `hostingAccount.state` context key. */
export type ConnectionState = 'noBaseUrl' | 'badBaseUrl' | 'noKey' | 'loading' | 'invalidKey' | 'unreachable' | 'ready';

export type DataKind = 'orders' | 'balance' | 'invoices' | 'account';
export type RefreshReason = 'user' | 'background';

export interface Slot<T> {
  readonly value?: T;
  readonly updatedAt?: number;
  /** When the read that gave `value` began: what it shows was so then or later. */
  readonly askedAt?: number;
  /** Cleared by the next success; with a value present, the value is stale. */
  readonly error?: ApiError;
  readonly failedAt?: number;
  readonly failedInARow?: number;
  readonly loading: boolean;
  readonly coverage?: ListCoverage;
}

export interface ListCoverage {
  readonly shown: number;
  readonly total?: number;
  readonly stoppedBy?: Listing<unknown>['stoppedBy'];
  readonly ids?: IdListReading;
}

/** Invoices have no single path: `noDetails`. */
export interface IdListReading {
  readonly count: number;
  readonly failed: number;
  readonly notYet: number;
  readonly noDetails?: true;
}

export const ACTION_SOURCES = ['menu', 'palette', 'bulk', 'task', 'assistant', 'notice'] as const;
export type ActionSource = (typeof ACTION_SOURCES)[number];

export interface PendingAction {
  readonly action: OrderAction;
  readonly source?: ActionSource;
  readonly since: number;
  readonly phase: 'sending' | 'settling';
  readonly sawBusy: boolean;
}

export interface StoreSettings {
  readonly baseUrl: string;
  readonly requestsPerMinute: number;
  readonly requestTimeoutMs: number;
  /** Another map builds another client. */
  readonly fieldMap?: FieldMap;
}

/** The client itself lives in the lazily loaded bundle. */
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
  /** Asked before any action is sent, whoever sends it; throws `Declined` to send nothing. */
  readonly guard?: (order: Order, action: OrderAction, source?: ActionSource) => Promise<void>;
}

export interface Failure {
  readonly kind: DataKind | 'action' | 'details';
  readonly error: ApiError;
  readonly userInitiated: boolean;
  /** False for the repeats of one outage, so notifications cannot stack up. */
  readonly firstInEpisode: boolean;
}

/** No `ids`: the list itself changed. */
export interface OrdersChange {
  readonly ids?: readonly string[];
}
