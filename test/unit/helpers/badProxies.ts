/**
 * Proxies that misbehave, on loopback: one that accepts the TCP connection and closes it as soon as the CONNECT
 * request arrives (`dropping`), and one that accepts it and never answers (`blackHole`). They count connections and
 * how many are still open, so a test can tell a reconnect storm from a few tries and see a connection torn down.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface BadProxy {
  readonly url: string;
  readonly address: string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Connections still open. */
  readonly open: number;
  close(): Promise<void>;
}

export async function startBadProxy(behaviour: 'dropping' | 'blackHole'): Promise<BadProxy> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (behaviour === 'dropping') socket.once('data', () => socket.destroy());
    // A black hole reads what it is sent (so it sees the client close) and answers nothing.
    else socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    address: `127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    get open() {
      return sockets.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
