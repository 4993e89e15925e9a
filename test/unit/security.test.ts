import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ApiClient } from '../../src/api/ApiClient';
import { type ApiError } from '../../src/api/errors';
import { LimiterRegistry } from '../../src/api/RateLimiter';

const KEY = 'sk_test_security_0123456789';
const fixtures = join(__dirname, '..', '..', '..', 'test', 'fixtures');

function listen(server: http.Server | https.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: http.Server | https.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function client(baseUrl: string): ApiClient {
  return new ApiClient({
    baseUrl,
    getKey: () => KEY,
    userAgent: 'security-test',
    limiters: new LimiterRegistry(61_000),
    retry: { maxAttempts: 3, baseDelayMs: 5 },
  });
}

describe('where the key may go (unit)', () => {
  it('reports a TLS certificate the system does not trust, and never sends the request', async () => {
    const seen: string[] = [];
    const server = https.createServer(
      {
        key: readFileSync(join(fixtures, 'self-signed.key')),
        cert: readFileSync(join(fixtures, 'self-signed.crt')),
      },
      (req, res) => {
        seen.push(req.headers.authorization ?? '');
        res.end('{}');
      },
    );
    const port = await listen(server);
    const api = client(`https://127.0.0.1:${port}`);
    try {
      const error = await api.getBalance().then(
        () => undefined,
        (e: unknown) => e as ApiError,
      );
      assert.equal(error?.kind, 'network');
      assert.equal(error?.tls, true);
      assert.match(
        error?.message ?? '',
        /TLS certificate was rejected \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/,
      );
      assert.deepEqual(seen, [], 'no request, and so no key, reached the server');
    } finally {
      await api.dispose();
      await close(server);
    }
  });

  it('does not follow a redirect, so the key never reaches the place it points to', async () => {
    const elsewhere: string[] = [];
    const target = http.createServer((req, res) => {
      elsewhere.push(req.headers.authorization ?? '');
      res.end('{}');
    });
    const targetPort = await listen(target);
    const origin = http.createServer((_req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${targetPort}/api/v1/balance` });
      res.end();
    });
    const port = await listen(origin);
    const api = client(`http://127.0.0.1:${port}`);
    try {
      const error = await api.getBalance().then(
        () => undefined,
        (e: unknown) => e as ApiError,
      );
      assert.equal(error?.kind, 'badResponse');
      assert.match(error?.message ?? '', /redirect/);
      assert.deepEqual(elsewhere, []);
    } finally {
      await api.dispose();
      await close(origin);
      await close(target);
    }
  });

  it('refuses a plain-http base URL that is not loopback before any request', () => {
    assert.throws(() => client('http://203.0.113.7'), { kind: 'badConfig' });
    assert.throws(() => client('http://api.example.com'), { kind: 'badConfig' });
  });
});
