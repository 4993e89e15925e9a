/**
 * A small CONNECT proxy for the tests, on loopback: it records each CONNECT target and the headers it came with,
 * can require Basic credentials, and resolves test host names (`api.test`) to 127.0.0.1. Anything but CONNECT is
 * refused and recorded, so a test can show that nothing travelled through it in the clear.
 */
import http from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

export interface ConnectRecord {
  readonly target: string;
  readonly proxyAuthorization?: string;
  readonly headers: string;
}

export interface ConnectProxy {
  readonly url: string;
  readonly address: string;
  readonly connects: ConnectRecord[];
  /** Requests that were not CONNECT (plain proxying): there should be none. */
  readonly plain: string[];
  close(): Promise<void>;
}

export interface ConnectProxyOptions {
  /** `user:password` the proxy insists on, as Basic credentials. */
  readonly credentials?: string;
  readonly hosts?: Readonly<Record<string, string>>;
}

export async function startConnectProxy(options: ConnectProxyOptions = {}): Promise<ConnectProxy> {
  const connects: ConnectRecord[] = [];
  const plain: string[] = [];
  const sockets = new Set<Socket>();
  const hosts: Readonly<Record<string, string>> = { 'api.test': '127.0.0.1', ...options.hosts };
  const expected = options.credentials ? `Basic ${Buffer.from(options.credentials).toString('base64')}` : undefined;

  const server = http.createServer((req, res) => {
    plain.push(`${req.method ?? ''} ${req.url ?? ''}`);
    res.writeHead(405).end();
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    const proxyAuthorization = req.headers['proxy-authorization'];
    connects.push({ target, proxyAuthorization, headers: JSON.stringify(req.headers) });
    if (expected !== undefined && proxyAuthorization !== expected) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const colon = target.lastIndexOf(':');
    const host = target.slice(0, colon);
    const upstream = connect(Number(target.slice(colon + 1)), hosts[host] ?? host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    address: `127.0.0.1:${port}`,
    connects,
    plain,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
