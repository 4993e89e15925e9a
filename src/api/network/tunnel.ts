import { validateHeaderName, validateHeaderValue } from 'node:http';
import { type Socket } from 'node:net';
import { type Connector, type Dispatcher } from '../undici';

const MAX_ANSWER_BYTES = 16 * 1024;
const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})(?: |$)/;

// What `ProxyAgent` asks of its `clientFactory`'s client (lib/dispatcher/proxy-agent.js).
interface TunnelRequest {
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  readonly signal?: AbortSignal;
  readonly servername?: string;
}

function dropped(message: string): Error {
  return Object.assign(new Error(message), { code: 'UND_ERR_SOCKET' });
}

// CONNECT written out rather than on an undici pool, which reconnects for ever when the proxy closes on CONNECT,
// keeps a spare connection after an abort, and loses an abort that arrives before its connection is made.
export function tunnelClient(proxy: URL, options: object): Dispatcher {
  const { connect } = options as { connect: Connector };
  const pending = new Set<Socket>();
  const abandonAll = (): Promise<void> => {
    for (const socket of pending) socket.destroy();
    pending.clear();
    return Promise.resolve();
  };
  const client = {
    connect: (request: TunnelRequest) =>
      new Promise<{ socket: Socket; statusCode: number }>((resolve, reject) => {
        if (request.signal?.aborted) return reject(abortError());
        let socket: Socket | undefined;
        const onAbort = (): void => {
          socket?.destroy();
          reject(abortError());
        };
        request.signal?.addEventListener('abort', onAbort, { once: true });
        const fail = (error: Error): void => {
          request.signal?.removeEventListener('abort', onAbort);
          if (socket) pending.delete(socket);
          socket?.destroy();
          reject(error);
        };
        let head: string;
        try {
          head = requestHead(request);
        } catch (error) {
          return fail(error instanceof Error ? error : new Error(String(error)));
        }
        const port = proxy.port || (proxy.protocol === 'https:' ? '443' : '80');
        connect(
          {
            hostname: proxy.hostname,
            host: proxy.host,
            protocol: proxy.protocol,
            port,
            servername: request.servername,
          },
          (error, connected) => {
            if (error || !connected) return fail(error ?? dropped('No connection to the proxy.'));
            socket = connected;
            if (request.signal?.aborted) return fail(abortError());
            pending.add(socket);
            readAnswer(socket, head).then(
              (statusCode) => {
                request.signal?.removeEventListener('abort', onAbort);
                pending.delete(connected);
                resolve({ socket: connected, statusCode });
              },
              (failure: Error) => fail(failure),
            );
          },
        );
      }),
    close: (): Promise<void> => abandonAll(),
    destroy: (): Promise<void> => abandonAll(),
  };
  return client as unknown as Dispatcher;
}

function requestHead(request: TunnelRequest): string {
  if ([...request.path].some((char) => char <= ' ' || char === '\x7f')) {
    throw new Error('The tunnel target is not a host and port.');
  }
  let head = `CONNECT ${request.path} HTTP/1.1\r\n`;
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one === undefined) continue;
      validateHeaderName(name);
      validateHeaderValue(name, one);
      head += `${name}: ${one}\r\n`;
    }
  }
  return `${head}\r\n`;
}

function readAnswer(socket: Socket, head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const cleanup = (): void => {
      // Paused again, as it came: the TLS layer takes the socket over from here.
      socket.pause();
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onError);
    };
    const onClose = (): void => {
      cleanup();
      reject(dropped('The proxy closed the connection before it answered CONNECT.'));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) {
        if (received.length > MAX_ANSWER_BYTES) {
          cleanup();
          reject(dropped('The proxy answered CONNECT with more than a head.'));
        }
        return;
      }
      cleanup();
      const status = STATUS_LINE.exec(received.subarray(0, Math.min(end, 64)).toString('latin1'));
      if (!status?.[1]) return reject(dropped('The proxy answered CONNECT with something that is not HTTP.'));
      const rest = received.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve(Number(status[1]));
    };
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onError);
    socket.write(head);
  });
}

function abortError(): Error {
  return Object.assign(new Error('The tunnel was abandoned.'), { name: 'AbortError', code: 'UND_ERR_ABORTED' });
}
