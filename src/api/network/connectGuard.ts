import { type Socket } from 'node:net';
import { type Clock, systemClock } from '../clock';
import { buildConnector, type Connector, createPool, type Dispatcher } from '../undici';

const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;

// No `code` of its own: undici reconnects at once, for ever, on a connector's `UND_ERR_SOCKET` (a proxy closing on
// CONNECT would cost a core); this fails the waiting requests instead, the real code kept in `cause`.
export class ConnectFailure extends Error {
  override readonly name = 'ConnectFailure';

  constructor(
    readonly phase: 'timeout' | 'failed',
    readonly deadlineMs: number,
    cause?: unknown,
  ) {
    super(
      phase === 'timeout' ? `No connection within ${deadlineMs} ms.` : 'The connection failed.',
      cause === undefined ? undefined : { cause },
    );
  }
}

export interface GuardOptions {
  readonly connectMs: number;
  readonly random?: () => number;
  readonly clock?: Clock;
  readonly onConnected?: (socket: Socket) => void;
}

// Our own timer answers every attempt (undici loses an abort that arrives before the connection is made), and a
// jittered, doubling wait after a failure keeps anything below from reconnecting in a tight loop.
export function guardedPools(options: GuardOptions): (origin: string | URL, opts: object) => Dispatcher {
  return (origin, opts) => {
    const { connect, ...rest } = opts as { connect?: Connector | object };
    const connector =
      typeof connect === 'function'
        ? (connect as Connector)
        : buildConnector({ ...(connect as object), timeout: options.connectMs });
    return createPool(origin, { ...rest, connect: guardConnector(connector, options) });
  };
}

export function guardConnector(connector: Connector, options: GuardOptions): Connector {
  const random = options.random ?? Math.random;
  const clock = options.clock ?? systemClock;
  let failures = 0;
  let notBefore = 0;
  return (connectOptions, callback) => {
    let settled = false;
    let deadline: unknown;
    const finish = (error: Error | null, socket?: Socket): void => {
      if (settled) {
        // Already answered (timed out).
        socket?.on('error', () => undefined).destroy();
        return;
      }
      settled = true;
      if (deadline !== undefined) clock.clearTimeout(deadline);
      if (error || !socket) {
        failures++;
        const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (failures - 1));
        notBefore = clock.now() + backoff / 2 + random() * (backoff / 2);
        const failure =
          error instanceof ConnectFailure ? error : new ConnectFailure('failed', options.connectMs, error);
        callback(failure, null);
        return;
      }
      failures = 0;
      notBefore = 0;
      options.onConnected?.(socket);
      callback(null, socket);
    };
    const attempt = (): void => {
      // Through a proxy the signal reaches the CONNECT request, so a proxy that never answers loses its connection.
      const abandon = new AbortController();
      deadline = clock.setTimeout(() => {
        finish(new ConnectFailure('timeout', options.connectMs));
        abandon.abort();
      }, options.connectMs);
      try {
        const withSignal = { ...connectOptions, signal: abandon.signal };
        connector(withSignal, (error, socket) => finish(error, socket ?? undefined));
      } catch (error) {
        finish(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const wait = notBefore - clock.now();
    if (wait <= 0) return attempt();
    clock.setTimeout(attempt, wait);
  };
}
