import { type Socket } from 'node:net';
import { type Clock, systemClock } from '../clock';
import { buildConnector, type Connector, createPool, type Dispatcher } from '../undici';

/** The first reconnect after a failed connection waits about this long (jittered), doubling up to the cap. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;

/**
 * A connection (TCP, TLS, and through a proxy the CONNECT exchange) that failed or did not complete in time. It has no
 * `code` of its own: undici takes `UND_ERR_SOCKET` from a connector as a socket that broke under a running request
 * and connects again at once, for ever (a proxy that closes on CONNECT then costs a core). This error instead fails the
 * requests that waited for the connection; the code of what happened stays in `cause`.
 */
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
  /** Longest wait for one connection, whatever the layers below do with their own timeouts. */
  readonly connectMs: number;
  readonly random?: () => number;
  readonly clock?: Clock;
  /** Told of every connection made (through a proxy: the tunnel to the API), e.g. to know whether one is open. */
  readonly onConnected?: (socket: Socket) => void;
}

/**
 * The `factory` of an `Agent` or `ProxyAgent`: each origin's pool connects through a guarded connector. The guard
 * answers every connection attempt within `connectMs` with our own timer (undici loses an abort that arrives before a
 * connection is made), turns every failure into a ConnectFailure, and spaces the attempts after a failure with a
 * jittered, doubling wait, so nothing below can reconnect in a tight loop.
 */
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

/** One pool's connector, with a deadline per attempt and a backoff shared by its connections. */
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
        // Too late: the attempt was already answered (timed out); what it brings is not wanted.
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
