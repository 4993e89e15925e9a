import { type Socket } from 'node:net';
import { type Dispatcher, request as undiciRequest } from './undici';
import { ApiError, cancelledError } from './errors';
import { ConnectFailure } from './network/connectGuard';
import { type ConnectionPlan, createDispatcher, planConnection } from './network/dispatcher';
import { classifyRouteFailure, invalidRouteError } from './network/failures';
import { describeRoute } from './network/route';
import { type NetworkSettings } from './network/settings';

export interface Timeouts {
  readonly connectMs: number;
  readonly headersMs: number;
  readonly bodyMs: number;
  // So a body that trickles forever still ends.
  readonly totalMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000, totalMs: 60_000 };
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

export interface TransportRequest {
  readonly origin: string;
  readonly method: 'GET' | 'POST';
  // Never parsed by a URL class, which would resolve `..` segments.
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
  readonly lane?: Lane;
}

export type Lane = 'user' | 'background';

export interface TransportNetwork {
  readonly origin: string;
  readonly settings?: NetworkSettings;
  readonly onWarning?: (message: string) => void;
}

export interface TransportResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
  readonly bytes: number;
}

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNABORTED',
]);
const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(?:GET|VERIFY)|HOSTNAME_MISMATCH|ALTNAME/i;

function findCode(error: unknown, depth = 0): string | undefined {
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
  return (
    findCode(cause, depth + 1) ??
    (Array.isArray(errors) ? errors.map((e) => findCode(e, depth + 1)).find(Boolean) : undefined) ??
    (typeof code === 'string' ? code : undefined)
  );
}

function headerLine(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

class DeadlineHit extends Error {}

interface LanePool {
  dispatcher: Dispatcher;
  active: number;
  retired: boolean;
  // With none open or made meanwhile, a request that got no answer was never sent.
  open: number;
  made: number;
}

// A pool per lane: undici serves first come, first served, so a Stop would wait for hung background reads. Our own
// `totalMs` timer ends every request (undici loses an early abort); a pool left without an answer is replaced.
export class Transport {
  private readonly lanes: Record<Lane, LanePool>;
  private readonly retired = new Set<LanePool>();
  private closed = false;
  private readonly plan: ConnectionPlan;
  private readonly agent: (connections: number, onConnected?: (socket: Socket) => void) => Dispatcher;

  constructor(
    private readonly timeouts: Timeouts,
    private readonly maxResponseBytes: number,
    network: TransportNetwork,
  ) {
    this.plan = planConnection(network.origin, network.settings);
    for (const warning of this.plan.warnings) network.onWarning?.(warning);
    this.agent = (connections: number, onConnected?: (socket: Socket) => void): Dispatcher =>
      createDispatcher(this.plan, {
        connections,
        connectMs: timeouts.connectMs,
        headersMs: timeouts.headersMs,
        bodyMs: timeouts.bodyMs,
        onConnected,
      });
    this.lanes = { user: this.pool('user'), background: this.pool('background') };
  }

  get route(): string {
    return describeRoute(this.plan.route);
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    if (this.plan.route.kind === 'invalid') throw invalidRouteError(this.plan.route);
    const lane = request.lane ?? 'background';
    const pool = this.lanes[lane];
    pool.active++;
    const madeBefore = pool.made;
    const deadline = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
    const progress = { headersReceived: false };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadlineHit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        deadline.abort();
        reject(new DeadlineHit());
      }, this.timeouts.totalMs);
      timer.unref?.();
    });
    const exchange = this.exchange(pool.dispatcher, request, signal, progress);
    exchange.catch(() => undefined);
    deadlineHit.catch(() => undefined);
    try {
      return await Promise.race([exchange, deadlineHit]);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const timedOut = error instanceof DeadlineHit;
      if (timedOut && !progress.headersReceived) this.retire(pool, lane);
      const connected = progress.headersReceived || pool.open > 0 || pool.made > madeBefore;
      throw this.classify(timedOut ? undefined : error, request, timedOut, progress.headersReceived, connected);
    } finally {
      clearTimeout(timer);
      pool.active--;
      if (pool.retired && pool.active === 0) this.discard(pool);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.lanes.user, this.lanes.background].map((pool) => pool.dispatcher.close()));
  }

  async destroy(): Promise<void> {
    this.closed = true;
    const pools = [this.lanes.user, this.lanes.background, ...this.retired];
    this.retired.clear();
    await Promise.all(pools.map((pool) => pool.dispatcher.destroy()));
  }

  private pool(lane: Lane): LanePool {
    const pool: Omit<LanePool, 'dispatcher'> & Partial<LanePool> = { active: 0, retired: false, open: 0, made: 0 };
    pool.dispatcher = this.agent(lane === 'user' ? 2 : 4, (socket) => {
      pool.made++;
      pool.open++;
      socket.once('close', () => pool.open--);
    });
    return pool as LanePool;
  }

  private retire(pool: LanePool, lane: Lane): void {
    if (pool.retired) return;
    pool.retired = true;
    this.retired.add(pool);
    if (this.lanes[lane] === pool && !this.closed) this.lanes[lane] = this.pool(lane);
  }

  private discard(pool: LanePool): void {
    this.retired.delete(pool);
    pool.dispatcher.destroy().catch(() => undefined);
  }

  private async exchange(
    dispatcher: Dispatcher,
    request: TransportRequest,
    signal: AbortSignal,
    progress: { headersReceived: boolean },
  ): Promise<TransportResponse> {
    const response = await undiciRequest(dispatcher, {
      origin: request.origin,
      path: request.path,
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal,
    });
    progress.headersReceived = true;
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(response.headers)) headers[name.toLowerCase()] = headerLine(value);
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxResponseBytes) {
      response.body.destroy();
      throw this.tooLarge(declared);
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    const stop = (): void => void response.body.destroy();
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > this.maxResponseBytes) {
          response.body.destroy();
          throw this.tooLarge(bytes);
        }
        chunks.push(chunk);
      }
    } finally {
      signal.removeEventListener('abort', stop);
    }
    return { status: response.statusCode, headers, body: Buffer.concat(chunks).toString('utf8'), bytes };
  }

  private tooLarge(bytes: number): ApiError {
    const limitMb = Math.round(this.maxResponseBytes / 1024 / 1024);
    return new ApiError(
      'badResponse',
      `The response was larger than ${limitMb} MB (${bytes} bytes or more) and was cut off.`,
      {
        maybeSent: true,
      },
    );
  }

  private classify(
    error: unknown,
    request: TransportRequest,
    deadlineHit: boolean,
    headersReceived: boolean,
    connected = true,
  ): ApiError {
    const code = findCode(error);
    const details = { cause: error, maybeSent: true };
    if (request.signal?.aborted) return cancelledError(details);
    if (deadlineHit) {
      const proxy =
        this.plan.route.kind === 'proxy'
          ? { address: this.plan.route.proxy.address, setting: this.plan.route.setting }
          : undefined;
      return new ApiError('timeout', `No complete answer within ${Math.round(this.timeouts.totalMs / 1000)} s.`, {
        ...details,
        maybeSent: connected,
        proxy: connected ? undefined : proxy,
      });
    }
    const routeFailure = classifyRouteFailure(error, code, this.plan.route);
    if (routeFailure) return routeFailure;
    if (error instanceof ConnectFailure && error.phase === 'timeout') {
      return new ApiError('timeout', `Could not connect within ${Math.round(this.timeouts.connectMs / 1000)} s.`, {
        ...details,
        maybeSent: false,
      });
    }
    switch (code ?? '') {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new ApiError('timeout', `Could not connect within ${Math.round(this.timeouts.connectMs / 1000)} s.`, {
          ...details,
          maybeSent: false,
        });
      case 'UND_ERR_HEADERS_TIMEOUT':
        return new ApiError(
          'timeout',
          `The server did not answer within ${Math.round(this.timeouts.headersMs / 1000)} s.`,
          details,
        );
      case 'UND_ERR_BODY_TIMEOUT':
        return new ApiError(
          'timeout',
          `The server stopped sending its answer for ${Math.round(this.timeouts.bodyMs / 1000)} s.`,
          details,
        );
      case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
        return this.tooLarge(this.maxResponseBytes + 1);
      default:
        break;
    }
    if (code && TLS_CODE.test(code)) {
      return new ApiError('network', `The server's TLS certificate was rejected (${code}).`, {
        ...details,
        maybeSent: false,
        transportCode: code,
        tls: true,
      });
    }
    const sent = !(error instanceof ConnectFailure) && !(code && NOT_SENT_CODES.has(code));
    const what =
      code === 'ECONNREFUSED'
        ? 'The connection was refused'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'The server name could not be resolved'
          : headersReceived
            ? 'The connection broke while the answer was arriving'
            : 'The connection failed';
    return new ApiError('network', `${what}${code ? ` (${code})` : ''}.`, {
      ...details,
      maybeSent: sent,
      transportCode: code,
    });
  }
}
