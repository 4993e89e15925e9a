import { STATUS_CODES, type ServerResponse } from 'node:http';
import { type Exchange, HTML_TYPE, JSON_TYPE } from './exchange';
import { respondEchoKey, respondRaw } from './rawFaults';
import { type FaultRule } from './types';

const HUGE_DEFAULT_BYTES = 20 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

export interface FaultContext {
  baseUrl: string;
  /** A realistic JSON body for the faults that cut one short. */
  sampleBody(): string;
}

/**
 * Answers a request with a terminal fault. 'delay' and 'contentType' modify the normal answer and are handled by
 * the server pipeline, not here.
 */
export async function respondWithFault(ex: Exchange, rule: FaultRule, ctx: FaultContext): Promise<void> {
  switch (rule.kind) {
    case 'delay':
    case 'contentType':
      throw new Error(`fault ${rule.kind} is not terminal`);
    case 'hang':
      return; // the socket stays open until the client or close() destroys it
    case 'status': {
      const status = rule.status ?? 500;
      ex.error(status, 'server_error', `Injected fault: HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trim());
      return;
    }
    case 'rateLimit': {
      const retryAfter = rule.retryAfter === undefined ? '1' : rule.retryAfter;
      ex.error(429, 'rate_limited', 'Too many requests', retryAfter === null ? {} : { 'Retry-After': retryAfter });
      return;
    }
    case 'malformed':
      ex.send(200, JSON_TYPE, '{"data":[{"id":1001,"name":"web-frontend-01","status":"runn');
      return;
    case 'html': {
      const status = rule.status ?? 502;
      ex.send(status, HTML_TYPE, proxyErrorPage(status));
      return;
    }
    case 'reset':
      ex.reset();
      return;
    case 'resetMidBody':
      resetMidBody(ex, ctx.sampleBody());
      return;
    case 'huge':
      await streamHuge(ex, rule.bytes ?? HUGE_DEFAULT_BYTES);
      return;
    case 'empty':
      ex.send(rule.status ?? 200, JSON_TYPE, '');
      return;
    case 'redirect':
      ex.send(302, undefined, '', { Location: rule.location ?? `${ctx.baseUrl}/client/login` });
      return;
    case 'raw':
      return respondRaw(ex, rule, ctx.baseUrl);
    case 'echoKey':
      return respondEchoKey(ex, rule);
  }
}

function proxyErrorPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return (
    `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n` +
    '<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'
  );
}

function resetMidBody(ex: Exchange, body: string): void {
  const bytes = Buffer.from(body, 'utf8');
  ex.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': bytes.length });
  // Destroy only after the half is flushed, otherwise the client may see a reset before any headers.
  ex.res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => ex.reset());
}

/** Streams a valid JSON document of exactly `bytes` bytes (or the minimum possible) without buffering it. */
async function streamHuge(ex: Exchange, bytes: number): Promise<void> {
  const head = '{"data":[],"meta":{"total":0},"padding":"';
  const tail = '"}';
  const total = Math.max(bytes, head.length + tail.length);
  const { res } = ex;
  ex.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': total });
  let remaining = total - head.length - tail.length;
  let ok = res.write(head);
  while (remaining > 0) {
    if (!ok) await drained(res);
    if (res.destroyed) return;
    const n = Math.min(remaining, CHUNK.length);
    ok = res.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
    remaining -= n;
  }
  res.end(tail);
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
