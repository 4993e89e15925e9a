import { type Clock } from './clock';
import { type FieldMap } from './normalise/pointers';
import { type NetworkSettings } from './network/settings';
import { type LimiterRegistry } from './RateLimiter';
import { type RequestPriority, type Urgency } from './SharedRequests';
import { type RetryPolicy } from './retry';
import { type Timeouts } from './transport';

/** One line per HTTP attempt, for the output channel. Never carries the key. */
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
  /** `direct` or `proxy host:port`: never the proxy's credentials. */
  readonly route?: string;
}

export interface ApiClientOptions {
  readonly baseUrl: string;
  readonly getKey: () => Promise<string | undefined> | string | undefined;
  /** e.g. `hosting-account-vscode/0.1.0`. */
  readonly userAgent: string;
  readonly timeouts?: Partial<Timeouts>;
  readonly maxResponseBytes?: number;
  /** Requests per rolling minute for this key; the API allows 120. */
  readonly requestsPerMinute?: number;
  /** The limiters per key and origin; made by the composition root, so they outlive any one client. */
  readonly limiters: LimiterRegistry;
  readonly clock?: Clock;
  readonly retry?: Partial<RetryPolicy>;
  /** Pages followed at most when a list is paginated. */
  readonly maxPages?: number;
  readonly onRequest?: (entry: RequestLogEntry) => void;
  /** Something worth a line in the log that is not a request: a bound that stopped a list, an odd answer. */
  readonly onWarning?: (message: string) => void;
  /** Worth knowing, not wrong: which fields of each endpoint's answer were read as what (once per endpoint). */
  readonly onNote?: (message: string) => void;
  /** Jitter source, replaceable for deterministic tests. */
  readonly random?: () => number;
  /** Other secrets in play (the stored key while a new one is checked): masked out of all this client reports. */
  readonly secrets?: () => Iterable<string>;
  /** The account's own pointers into its provider's answers: a mapped field wins over the general reading. */
  readonly fieldMap?: FieldMap;
  /** Proxy and certificate settings (VS Code's `http.*`); none means direct, with Node's certificates. */
  readonly network?: NetworkSettings;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /** User-initiated calls overtake queued background refreshes. */
  readonly priority?: RequestPriority;
  /** A background call a user may join later: raising it then lets it overtake like the user's own (wins over `priority`). */
  readonly urgency?: Urgency;
  /** Told when the request must wait for the rate limit, and until when: a user must see why nothing happens. */
  readonly onWait?: (until: number) => void;
}
