import assert from 'node:assert/strict';
import { excerpt, interpret, parseRateLimitReset, parseRetryAfter, readErrorBody } from '../../src/api/response';

const KEY = 'sk_live_0123456789abcdef';
const context = { method: 'GET', path: '/api/v1/orders', key: KEY };
const now = Date.parse('2026-11-21T12:00:00Z');

function response(status: number, body: string, headers: Record<string, string> = {}) {
  return { status, body, headers: { 'content-type': 'application/json', ...headers }, bytes: body.length };
}

describe('response interpretation (unit)', () => {
  it('parses Retry-After as seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter('7', now), 7_000);
    assert.equal(parseRetryAfter('0.5', now), 500);
    assert.equal(parseRetryAfter(new Date(now + 30_000).toUTCString(), now), 30_000);
    assert.equal(parseRetryAfter(new Date(now - 30_000).toUTCString(), now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });

  it('parses X-RateLimit-Reset in the three forms servers use', () => {
    assert.equal(parseRateLimitReset(String(now / 1000 + 60), now), now + 60_000);
    assert.equal(parseRateLimitReset(String(now + 60_000), now), now + 60_000);
    assert.equal(parseRateLimitReset('60', now), now + 60_000);
    assert.equal(parseRateLimitReset('x', now), undefined);
  });

  it('reads the spec error body and common variants', () => {
    assert.deepEqual(readErrorBody({ error: 'unauthorized', message: 'Invalid or missing API key' }), {
      code: 'unauthorized',
      message: 'Invalid or missing API key',
    });
    assert.deepEqual(readErrorBody({ error: { code: 'not_found', message: 'No order' } }), {
      code: 'not_found',
      message: 'No order',
    });
    assert.deepEqual(readErrorBody({ type: 'about:blank', title: 'Conflict', detail: 'Busy' }), {
      code: undefined,
      message: 'Busy',
    });
    assert.deepEqual(readErrorBody({ errors: [{ code: 'bad', message: 'Bad thing' }] }), {
      code: 'bad',
      message: 'Bad thing',
    });
  });

  it('classifies statuses into kinds', async () => {
    const kindOf = async (status: number, body = '', headers: Record<string, string> = {}): Promise<string> => {
      try {
        await interpret(response(status, body, headers), context, now);
        return 'ok';
      } catch (error) {
        return (error as { kind: string }).kind;
      }
    };
    assert.equal(await kindOf(200, '{}'), 'ok');
    assert.equal(await kindOf(204), 'ok');
    assert.equal(await kindOf(401, '{"error":"unauthorized","message":"Invalid or missing API key"}'), 'unauthorized');
    assert.equal(await kindOf(403), 'unauthorized');
    assert.equal(await kindOf(403, '{"error":"order_suspended","message":"Suspended"}'), 'invalidRequest');
    assert.equal(await kindOf(403, '{"error":"forbidden","message":"Not on your plan"}'), 'invalidRequest');
    assert.equal(await kindOf(403, '{"error":"invalid_api_key","message":"Bad key"}'), 'unauthorized');
    assert.equal(await kindOf(401, '{"error":"token_expired","message":"Expired"}'), 'unauthorized');
    assert.equal(await kindOf(400, '{"error":"unauthorized","message":"x"}'), 'unauthorized');
    assert.equal(await kindOf(200, '{"error":"unauthorized","message":"Invalid or missing API key"}'), 'unauthorized');
    assert.equal(await kindOf(404), 'notFound');
    assert.equal(await kindOf(409, '{"error":"invalid_state","message":"Already stopped"}'), 'invalidRequest');
    assert.equal(await kindOf(422), 'invalidRequest');
    assert.equal(await kindOf(429, '', { 'retry-after': '3' }), 'rateLimited');
    assert.equal(await kindOf(500), 'server');
    assert.equal(await kindOf(503), 'server');
    assert.equal(await kindOf(302, '', { location: '/elsewhere' }), 'badResponse');
    assert.equal(await kindOf(200, '{"data": [1,'), 'badResponse');
    assert.equal(await kindOf(200, '<html><body>Login</body></html>', { 'content-type': 'text/html' }), 'badResponse');
  });

  it('does not mistake an order with an error field for an error', async () => {
    assert.deepEqual(await interpret(response(200, '{"id":1,"error":"disk","name":"x"}'), context, now), {
      id: 1,
      error: 'disk',
      name: 'x',
    });
  });

  it('accepts valid JSON under a wrong content type', async () => {
    assert.deepEqual(await interpret(response(200, '[1]', { 'content-type': 'text/plain' }), context, now), [1]);
  });

  it('keeps the server message and code, the status and Retry-After', async () => {
    await assert.rejects(
      () =>
        interpret(
          response(429, '{"error":"rate_limited","message":"Slow down"}', {
            'retry-after': '12',
            'x-request-id': 'req_1',
          }),
          context,
          now,
        ),
      (error: {
        kind: string;
        code: string;
        serverMessage: string;
        status: number;
        retryAfterMs: number;
        requestId: string;
        message: string;
      }) => {
        assert.equal(error.code, 'rate_limited');
        assert.equal(error.serverMessage, 'Slow down');
        assert.equal(error.status, 429);
        assert.equal(error.retryAfterMs, 12_000);
        assert.equal(error.requestId, 'req_1');
        assert.match(error.message, /Slow down/);
        return true;
      },
    );
  });

  it('turns an HTML error page into a short sanitised excerpt', async () => {
    const html =
      `<!DOCTYPE html><html><head><style>body{color:red}</style><script>var k="${KEY}"</script><title>502 Bad Gateway</title></head>` +
      `<body><h1>502 Bad Gateway</h1><p>${'nginx '.repeat(100)}</p></body></html>`;
    await assert.rejects(
      () => interpret(response(502, html, { 'content-type': 'text/html' }), context, now),
      (error: Error & { kind: string }) => {
        assert.equal(error.kind, 'server');
        assert.match(error.message, /HTML page/);
        assert.match(error.message, /502 Bad Gateway/);
        assert.ok(!error.message.includes('<'), error.message);
        assert.ok(error.message.length < 200, error.message);
        return true;
      },
    );
  });

  it('masks the key wherever the server echoes it', async () => {
    await assert.rejects(
      () =>
        interpret(
          response(401, JSON.stringify({ error: 'unauthorized', message: `Key ${KEY} is invalid` })),
          context,
          now,
        ),
      (error: Error & { serverMessage: string }) => {
        assert.ok(!error.message.includes(KEY));
        assert.ok(!error.serverMessage.includes(KEY));
        assert.ok(!JSON.stringify(error).includes(KEY));
        return true;
      },
    );
    assert.equal(excerpt(`token=${KEY}`, KEY), 'token=***');
  });

  it('masks a key the server wrote with some of its characters escaped, which only parsing decodes', async () => {
    const partly = `\\u0073k\\u005f${KEY.slice(3)}`; // `sk_…` with its s and _ escaped
    const body = `{"name":"web ${partly}","${partly}":{"n":"${partly}"},"__proto__":"${partly}"}`;
    const json = await interpret(response(200, body), context, now);
    assert.ok(!JSON.stringify(json).includes(KEY), JSON.stringify(json));
    assert.equal((json as { name: string }).name, 'web ***');
    assert.equal(Object.getPrototypeOf(json), Object.prototype, 'no prototype set from the answer');
  });
});
