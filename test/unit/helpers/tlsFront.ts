/**
 * The mock API over HTTPS: a test certificate authority made at test time, and a TLS front on loopback that hands
 * the decrypted bytes to the plain-HTTP mock. The mock itself stays as it is.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { generate } from 'selfsigned';

export interface TestCa {
  /** The authority's certificate, PEM. */
  readonly caCert: string;
  /** A file holding it, for `NODE_EXTRA_CA_CERTS`. */
  readonly caFile: string;
  readonly key: string;
  readonly cert: string;
  remove(): void;
}

/** A CA and a server certificate it signed for `api.test`, `localhost` and 127.0.0.1. */
export async function makeTestCa(): Promise<TestCa> {
  const ca = await generate([{ name: 'commonName', value: 'Hosting Account Test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: 'api.test' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'api.test' },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'hosting-ca-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca.cert);
  return {
    caCert: ca.cert,
    caFile,
    key: leaf.private,
    cert: leaf.cert,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TlsFront {
  readonly port: number;
  /** TLS connections accepted: one per connection the client opened. */
  connections: number;
  close(): Promise<void>;
}

export async function startTlsFront(targetPort: number, ca: Pick<TestCa, 'key' | 'cert'>): Promise<TlsFront> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const front: TlsFront = { port: 0, connections: 0, close: () => Promise.resolve() };
  const server = tls.createServer({ key: ca.key, cert: ca.cert }, (socket) => {
    front.connections++;
    track(socket);
    const upstream = connect(targetPort, '127.0.0.1');
    track(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  // A handshake the client refused (unknown authority) ends here; it is what some tests expect.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(front, {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}
