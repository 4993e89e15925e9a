import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type ControlTarget } from './control';
import { createSeed, DEMO_API_KEY } from './data';
import { Faults } from './faults';
import { RequestPipeline } from './pipeline';
import { RateLimiter } from './rateLimit';
import { PAGED_DEFAULT_PAGE_SIZE } from './shapePaged';
import { LiveState } from './state';
import { type MockApi, type MockApiOptions, type RecordedRequest } from './types';

export { DEMO_API_KEY } from './data';
export type {
  AccountRecord,
  ApiShape,
  BalanceRecord,
  FaultController,
  FaultKind,
  FaultRule,
  InvoiceRecord,
  InvoiceStatus,
  MockApi,
  MockApiOptions,
  MockSeed,
  MockState,
  OrderAction,
  OrderRecord,
  OrderStatus,
  RawAnswer,
  RawAnswerFn,
  RecordedRequest,
} from './types';

export const DEFAULT_TRANSITION_MS = 3000;
export const DEFAULT_RATE_LIMIT = { limit: 120, windowMs: 60_000 } as const;

export async function startMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  const now = options.now ?? Date.now;
  let keys = [...(options.keys ?? [DEMO_API_KEY])];
  let transitionMs = checkMs(options.transitionMs ?? DEFAULT_TRANSITION_MS);
  const limits = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  const limiter = limits === false ? undefined : new RateLimiter(limits.limit, limits.windowMs, now);
  if (options.pageSize !== undefined && !(Number.isInteger(options.pageSize) && options.pageSize > 0)) {
    throw new RangeError(`Mock API: pageSize must be a positive integer, got ${options.pageSize}`);
  }

  const state = new LiveState(createSeed(options.seed), () => transitionMs);
  const faults = new Faults();
  const log: RecordedRequest[] = [];
  let url = '';

  const control: ControlTarget = {
    requests: log,
    faults,
    keys: () => keys,
    clearLog: () => void log.splice(0),
    resetAll: () => {
      state.reset();
      faults.clear();
      log.splice(0);
      limiter?.clear();
    },
    setKeys: (next) => void (keys = [...next]),
    setTransitionMs: (ms) => void (transitionMs = checkMs(ms)),
    setOrderStatus: (id, status) => {
      if (!state.getOrder(id)) return false;
      state.setOrderStatus(id, status);
      return true;
    },
  };
  const shape = options.shape ?? 'standard';
  const pipeline = new RequestPipeline({
    now,
    state,
    faults,
    limiter,
    limitHeaders: options.rateLimitHeaders ?? true,
    fixedRetryAfter: options.rateLimit ? options.rateLimit.retryAfterSeconds : undefined,
    log,
    control,
    shape,
    pageSize: options.pageSize ?? (shape === 'paged' ? PAGED_DEFAULT_PAGE_SIZE : undefined),
    quiet: options.quiet ?? true,
    keys: () => keys,
    baseUrl: () => url,
  });

  const server = createServer((req, res) => void pipeline.handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = urlHost(address);
  url = `http://${host}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      state.dispose();
      pipeline.cancelSleeps();
      server.close(() => resolve());
      // Keep-alive and hanging sockets would otherwise hold close() open indefinitely.
      server.closeAllConnections();
    });
    return closing;
  };

  return {
    url,
    port: address.port,
    get requests() {
      return log;
    },
    clearLog: control.clearLog,
    faults,
    state,
    setKeys: control.setKeys,
    setTransitionMs: control.setTransitionMs,
    reset: ({ seed } = {}) => {
      if (seed) state.reset(createSeed(seed));
      control.resetAll();
    },
    close,
  };
}

/** A wildcard bind address is not something a client can connect to; use loopback in the URL instead. */
function urlHost({ address, family }: AddressInfo): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return family === 'IPv6' ? `[${address}]` : address;
}

function checkMs(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`Mock API: transitionMs must be >= 0, got ${ms}`);
  return ms;
}
