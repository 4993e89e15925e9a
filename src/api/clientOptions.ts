import { type Clock } from './clock';
import { type FieldMap } from './normalise/pointers';
import { type NetworkSettings } from './network/settings';
import { type LimiterRegistry } from './RateLimiter';
import { type RequestPriority, type Urgency } from './SharedRequests';
import { type RetryPolicy } from './retry';
import { type Timeouts } from './transport';

export interface RequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly durationMs: number;
  readonly attempt: number;
  readonly bytes?: number;
  readonly requestId?: string;
  readonly error?: string;
  readonly retryInMs?: number;
  readonly route?: string;
}

export interface ApiClientOptions {
  readonly baseUrl: string;
  readonly getKey: () => Promise<string | undefined> | string | undefined;
  readonly userAgent: string;
  readonly timeouts?: Partial<Timeouts>;
  readonly maxResponseBytes?: number;
  // The API allows 120.
  readonly requestsPerMinute?: number;
  // Made by the composition root, so they outlive any one client.
  readonly limiters: LimiterRegistry;
  readonly clock?: Clock;
  readonly retry?: Partial<RetryPolicy>;
  readonly maxPages?: number;
  readonly onRequest?: (entry: RequestLogEntry) => void;
  readonly onWarning?: (message: string) => void;
  readonly onNote?: (message: string) => void;
  readonly random?: () => number;
  // Other secrets in play (the stored key while a new one is checked), masked too.
  readonly secrets?: () => Iterable<string>;
  // The account's own pointers into its provider's answers: a mapped field wins over the general reading.
  readonly fieldMap?: FieldMap;
  readonly network?: NetworkSettings;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly priority?: RequestPriority;
  // Wins over `priority`: a user may join the call later.
  readonly urgency?: Urgency;
  // A user must see why nothing happens.
  readonly onWait?: (until: number) => void;
}
