// Public types of the mock API. Other suites code against these names; keep them stable.

/** Canonical internal order states; shapes other than 'standard' map them to their own vocabulary on output. */
export type OrderStatus = 'running' | 'stopped' | 'suspended' | 'starting' | 'stopping' | 'restarting' | 'reinstalling';

export type OrderAction = 'start' | 'stop' | 'restart' | 'reinstall';

export type ApiShape = 'standard' | 'bare' | 'alt' | 'jsonapi' | 'paged' | 'ids';

export interface OrderRecord {
  id: number | string;
  name: string;
  status: OrderStatus;
  plan: string;
  ip: string;
  location: string;
  os: string;
  cpu: number;
  ram_gb: number;
  disk_gb: number;
  created_at: string;
  renews_at: string;
  price_monthly: number;
  currency: string;
}

export interface AccountRecord {
  id: number;
  name: string;
  email: string;
  company: string;
  created_at: string;
  tier: string;
}

export interface BalanceRecord {
  balance: number;
  currency: string;
  credit_limit: number;
}

export type InvoiceStatus = 'paid' | 'unpaid' | 'overdue' | 'cancelled';

export interface InvoiceRecord {
  id: number | string;
  number: string;
  date: string;
  due_date: string;
  amount: number;
  currency: string;
  status: InvoiceStatus;
  /** Absolute link; when absent the mock links to its own `/client/invoices/:id` page. */
  url?: string;
}

export interface MockSeed {
  account: AccountRecord;
  balance: BalanceRecord;
  orders: OrderRecord[];
  invoices: InvoiceRecord[];
}

export interface MockApiOptions {
  host?: string;
  port?: number;
  keys?: string[];
  transitionMs?: number;
  /** `retryAfterSeconds`: every 429 of the limit says this `Retry-After`, whatever the window holds (some APIs do). */
  rateLimit?: { limit: number; windowMs: number; retryAfterSeconds?: number } | false;
  /** False: the limit is enforced but never told (no X-RateLimit-* headers, no Retry-After unless fixed above). */
  rateLimitHeaders?: boolean;
  now?: () => number;
  pageSize?: number;
  shape?: ApiShape;
  seed?: Partial<MockSeed>;
  quiet?: boolean;
}

export interface RecordedRequest {
  seq: number;
  time: number;
  method: string;
  rawPath: string;
  route: string;
  orderId?: string;
  authorization?: string;
  userAgent?: string;
  accept?: string;
  contentType?: string;
  body: string;
  status: number;
  fault?: string;
}

export type FaultKind =
  | 'delay'
  | 'hang'
  | 'status'
  | 'rateLimit'
  | 'malformed'
  | 'html'
  | 'reset'
  | 'resetMidBody'
  | 'huge'
  | 'empty'
  | 'contentType'
  | 'redirect'
  | 'raw'
  | 'echoKey';

/** A complete answer served verbatim by the 'raw' fault (the mock only adds Content-Length, request id and CORS). */
export interface RawAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/**
 * Computes a raw answer per request, e.g. page N+1 of an endless chain. `rawPath` is as received (query included);
 * `baseUrl` is the mock's origin, for absolute links.
 */
export type RawAnswerFn = (rawPath: string, baseUrl: string) => RawAnswer;

export interface FaultRule {
  kind: FaultKind;
  method?: string;
  path?: string | RegExp;
  times?: number;
  delayMs?: number;
  status?: number;
  retryAfter?: string | null;
  bytes?: number;
  contentType?: string;
  location?: string;
  /** 'raw': extra response headers; they win over the mock's own (X-Request-Id, CORS). */
  headers?: Record<string, string>;
  /** 'raw': the body as sent, or a function computing the whole answer (then `status` and `headers` are ignored). */
  body?: string | RawAnswerFn;
}

export interface FaultController {
  add(rule: FaultRule): void;
  clear(): void;
  readonly active: readonly FaultRule[];
}

export interface MockState {
  orders: OrderRecord[];
  balance: BalanceRecord;
  account: AccountRecord;
  invoices: InvoiceRecord[];
  getOrder(id: string | number): OrderRecord | undefined;
  /** Sets the status immediately and cancels a pending transition of that order; throws for an unknown id. */
  setOrderStatus(id: string | number, status: OrderStatus): OrderRecord;
  /** Back to the seed (from now on the one given, if any); cancels every pending transition. */
  reset(seed?: MockSeed): void;
  /** Appends `n` generated orders with fresh numeric ids and returns them. */
  addOrders(n: number): OrderRecord[];
}

export interface MockApi {
  readonly url: string;
  readonly port: number;
  readonly requests: readonly RecordedRequest[];
  clearLog(): void;
  readonly faults: FaultController;
  readonly state: MockState;
  setKeys(keys: string[]): void;
  setTransitionMs(ms: number): void;
  /**
   * Back to a fresh server on the same address: the seed (from now on the one given, if any), no faults, an empty
   * log, a fresh rate limit. Keys and the transition time stay as they are (set them with setKeys/setTransitionMs).
   */
  reset(options?: { seed?: Partial<MockSeed> }): void;
  close(): Promise<void>;
}
