// The order in which a request is processed: control → log → body cap → faults → public pages → auth → rate limit
// → route. Faults sit before auth so a faulted request never changes state or uses up the rate limit.
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { handleApi } from './api';
import { bearerToken } from './auth';
import { handleClientPage } from './clientPages';
import { CONTROL_PREFIX, type ControlTarget, handleControl } from './control';
import { Exchange, MAX_BODY_BYTES, readBody } from './exchange';
import { respondWithFault } from './faultResponses';
import { type Faults } from './faults';
import { type RateLimiter } from './rateLimit';
import { decodeSegment, matchRoute, type RouteMatch } from './routes';
import { renderList, renderOrder } from './shapes';
import { type LiveState } from './state';
import { type ApiShape, type RecordedRequest } from './types';

export interface PipelineDeps {
  now: () => number;
  state: LiveState;
  faults: Faults;
  limiter: RateLimiter | undefined;
  /** Whether the limit is told (X-RateLimit-*, Retry-After) or only enforced. */
  limitHeaders: boolean;
  fixedRetryAfter?: number;
  shape: ApiShape;
  pageSize: number | undefined;
  quiet: boolean;
  log: RecordedRequest[];
  control: ControlTarget;
  keys(): readonly string[];
  baseUrl(): string;
}

export class RequestPipeline {
  private seq = 0;
  private readonly sleeps = new Set<() => void>();

  constructor(private readonly deps: PipelineDeps) {}

  /** Never rejects: any failure becomes a 500, or a reset when the head is already out. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawPath = req.url ?? '';
    const unlogged = isPreflight(req) || rawPath.startsWith(CONTROL_PREFIX);
    const entry = unlogged ? undefined : this.record(req, rawPath);
    const ex = new Exchange(req, res, entry);
    if (entry && !this.deps.quiet) res.on('close', () => printEntry(entry));
    try {
      if (isPreflight(req)) return preflight(ex);
      const body = await readBody(req);
      if (body === null) return;
      if (body.tooLarge) return ex.error(413, 'payload_too_large', `Request body exceeds ${MAX_BODY_BYTES} bytes`);
      ex.body = body.text;
      if (!entry) return handleControl(ex, this.deps.control);
      entry.body = body.text;
      await this.process(ex, entry);
    } catch (err) {
      if (ex.done) ex.reset();
      else ex.error(500, 'server_error', `Internal mock error: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Ends pending 'delay' waits early so close() leaves no timers behind. */
  cancelSleeps(): void {
    for (const wake of [...this.sleeps]) wake();
  }

  private async process(ex: Exchange, entry: RecordedRequest): Promise<void> {
    const method = ex.req.method ?? '';
    const fault = this.deps.faults.take(method, ex.rawPath);
    if (fault) {
      entry.fault = fault.kind;
      if (fault.kind === 'delay') {
        await this.sleep(fault.delayMs ?? 1000);
        if (ex.done) return;
      } else if (fault.kind === 'contentType') {
        ex.contentTypeOverride = fault.contentType ?? 'text/plain; charset=utf-8';
      } else {
        return respondWithFault(ex, fault, { baseUrl: this.deps.baseUrl(), sampleBody: () => this.sampleBody() });
      }
    }
    this.route(ex, matchRoute(method, ex.path));
  }

  private route(ex: Exchange, match: RouteMatch | undefined): void {
    const { deps } = this;
    const id = match?.rawId === undefined ? undefined : decodeSegment(match.rawId);
    if (match && !match.def.auth) return handleClientPage(ex, match.def.name, id, deps.state, deps.keys());

    const token = bearerToken(ex.req.headers.authorization);
    if (token === undefined || !deps.keys().includes(token)) {
      return ex.error(401, 'unauthorized', 'Invalid or missing API key', { 'WWW-Authenticate': 'Bearer' });
    }
    if (deps.limiter) {
      const decision = deps.limiter.take(token);
      if (deps.limitHeaders) {
        ex.res.setHeader('X-RateLimit-Limit', String(decision.limit));
        ex.res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
        ex.res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
      }
      if (!decision.allowed) {
        const message = `Rate limit of ${decision.limit} requests per ${deps.limiter.describeWindow()} exceeded`;
        const seconds = deps.fixedRetryAfter ?? (deps.limitHeaders ? decision.retryAfter : undefined);
        const retryAfter = seconds === undefined ? {} : { 'Retry-After': String(seconds) };
        return ex.error(429, 'rate_limited', message, retryAfter);
      }
    }
    // `!match.def.auth` cannot hold here (pages returned above); it only narrows the route name for handleApi.
    if (match === undefined || !match.def.auth) return ex.error(404, 'not_found', 'No such endpoint');
    if (match.rawId !== undefined && id === undefined) {
      return ex.error(400, 'invalid_request', 'The order id in the path is not valid percent-encoding');
    }
    const ctx = {
      state: deps.state,
      shape: deps.shape,
      pageSize: deps.pageSize,
      baseUrl: deps.baseUrl(),
      now: deps.now(),
    };
    handleApi(ex, match.def.name, id, ctx);
  }

  private record(req: IncomingMessage, rawPath: string): RecordedRequest {
    const method = req.method ?? '';
    const match = matchRoute(method, rawPath.split('?')[0] ?? '');
    const isOrderRoute = match?.def.name === 'order' || match?.def.name === 'action';
    const orderId = isOrderRoute && match.rawId !== undefined ? decodeSegment(match.rawId) : undefined;
    const h = req.headers;
    const entry: RecordedRequest = {
      seq: ++this.seq,
      time: this.deps.now(),
      method,
      rawPath,
      route: match?.label ?? 'unmatched',
      ...(orderId === undefined ? {} : { orderId }),
      ...(h.authorization === undefined ? {} : { authorization: h.authorization }),
      ...(h['user-agent'] === undefined ? {} : { userAgent: h['user-agent'] }),
      ...(h.accept === undefined ? {} : { accept: h.accept }),
      ...(h['content-type'] === undefined ? {} : { contentType: h['content-type'] }),
      body: '',
      status: 0,
    };
    this.deps.log.push(entry);
    return entry;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.sleeps.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      this.sleeps.add(wake);
    });
  }

  private sampleBody(): string {
    const { shape, state } = this.deps;
    const items = state.orders.map((o) => renderOrder(shape, o, this.deps.baseUrl(), this.deps.now()));
    return JSON.stringify(renderList(shape, 'orders', { items, total: items.length }).body);
  }
}

function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

// Browsers send these on their own; answering outside the log keeps request counts equal to what the client sent.
function preflight(ex: Exchange): void {
  const requested = ex.req.headers['access-control-request-headers'];
  ex.send(204, undefined, '', {
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': requested ?? 'Authorization, Content-Type, Accept',
    'Access-Control-Max-Age': '600',
  });
}

function printEntry(e: RecordedRequest): void {
  const fault = e.fault === undefined ? '' : ` [fault: ${e.fault}]`;
  console.log(`${e.method} ${e.rawPath} -> ${e.status === 0 ? 'no response' : e.status}${fault}`);
}
