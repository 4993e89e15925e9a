// The 'raw' and 'echoKey' faults: answers built for tests of the client's defences against hostile servers.
import { type OutgoingHttpHeaders } from 'node:http';
import { bearerToken } from './auth';
import { type Exchange, JSON_TYPE } from './exchange';
import { type FaultRule, type RawAnswer } from './types';

/** Serves `rule.body` (or what its function computes for this request) verbatim. */
export function respondRaw(ex: Exchange, rule: FaultRule, baseUrl: string): void {
  const answer: RawAnswer =
    typeof rule.body === 'function'
      ? rule.body(ex.rawPath, baseUrl)
      : { status: rule.status ?? 200, headers: rule.headers, body: rule.body ?? '' };
  sendRaw(ex, answer);
}

/**
 * Writes the answer byte for byte. Content-Length is added unless the answer sets its own framing (a test may want a
 * lying length); the given headers win over the mock's request id and CORS headers.
 */
export function sendRaw(ex: Exchange, answer: RawAnswer): void {
  const headers: OutgoingHttpHeaders = { ...answer.headers };
  const framed = Object.keys(headers).some((name) => /^(?:content-length|transfer-encoding)$/i.test(name));
  if (!framed) headers['Content-Length'] = Buffer.byteLength(answer.body);
  ex.writeHead(answer.status, headers);
  ex.res.end(answer.body);
}

/**
 * Echoes the request's bearer key in every place a response can carry it: two headers (three on a 401), a field
 * value, a field name, the `message` and `error` texts, and an order's name in a list. A client that shows, logs or
 * stores any of them leaks the key. Without a bearer token the raw Authorization header (or '') is echoed.
 */
export function respondEchoKey(ex: Exchange, rule: FaultRule): void {
  const header = ex.req.headers.authorization;
  const key = bearerToken(header) ?? header ?? '';
  const status = rule.status ?? 200;
  const headers: OutgoingHttpHeaders = { 'X-Request-Id': key, 'X-Api-Key': key };
  if (status === 401) {
    headers['WWW-Authenticate'] = `Bearer realm="api", error="invalid_token", error_description="${quoted(key)}"`;
  }
  const body = {
    error: `invalid_key:${key}`,
    message: `The API key ${key} is not valid for this request`,
    api_key: key,
    [key]: 'api_key',
    data: [{ id: 1001, name: key, status: 'running', ip: '203.0.113.10', api_key: key }],
    meta: { total: 1, request_id: key },
  };
  // Once more with its first character escaped, as no masking of the text itself can see.
  const text = JSON.stringify(body);
  const escaped = `\\u${(key.charCodeAt(0) || 0x20).toString(16).padStart(4, '0')}${JSON.stringify(key.slice(1)).slice(1, -1)}`;
  ex.send(status, JSON_TYPE, `${text.slice(0, -1)},"escaped_key":"${escaped}"}`, headers);
}

/** Escapes for a quoted-string (RFC 9110 5.6.4) so the header stays well-formed whatever the key holds. */
function quoted(text: string): string {
  return text.replace(/["\\]/g, (c) => `\\${c}`);
}
