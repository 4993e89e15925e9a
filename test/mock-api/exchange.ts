import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { type RecordedRequest } from './types';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';
export const MAX_BODY_BYTES = 64 * 1024;

// The extension may run as a web extension; its fetches then need CORS, and scripts need to read these headers.
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Link, Location',
};

/** One request/response pair: the only place that writes response heads, so the log always sees the status. */
export class Exchange {
  readonly requestId = `req_${randomBytes(8).toString('hex')}`;
  readonly rawPath: string;
  readonly path: string;
  readonly query: URLSearchParams;
  body = '';
  /** Set by the 'contentType' fault: the normal payload goes out labelled with this type instead. */
  contentTypeOverride: string | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly entry: RecordedRequest | undefined,
  ) {
    this.rawPath = req.url ?? '';
    const q = this.rawPath.indexOf('?');
    this.path = q === -1 ? this.rawPath : this.rawPath.slice(0, q);
    this.query = new URLSearchParams(q === -1 ? '' : this.rawPath.slice(q + 1));
    res.setHeader('X-Request-Id', this.requestId);
    for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
  }

  get done(): boolean {
    return this.res.headersSent || this.res.destroyed;
  }

  writeHead(status: number, headers: OutgoingHttpHeaders = {}): void {
    if (this.entry) this.entry.status = status;
    this.res.writeHead(status, headers);
  }

  send(status: number, contentType: string | undefined, body: string, headers: OutgoingHttpHeaders = {}): void {
    const head: OutgoingHttpHeaders = { ...headers, 'Content-Length': Buffer.byteLength(body) };
    if (contentType !== undefined) head['Content-Type'] = this.contentTypeOverride ?? contentType;
    this.writeHead(status, head);
    this.res.end(body);
  }

  json(status: number, payload: unknown, headers: OutgoingHttpHeaders = {}): void {
    this.send(status, JSON_TYPE, JSON.stringify(payload), headers);
  }

  error(status: number, error: string, message: string, headers: OutgoingHttpHeaders = {}): void {
    this.json(status, { error, message }, headers);
  }

  html(status: number, page: string): void {
    this.send(status, HTML_TYPE, page);
  }

  /** Destroys the connection without (further) output, like a crashed upstream. */
  reset(): void {
    this.req.socket.destroy();
  }
}

/**
 * Reads the request body as text. Past the cap the rest is drained and dropped (answering while the client still
 * sends would make it see a reset instead of the 413). Resolves null if the client went away.
 */
export function readBody(
  req: IncomingMessage,
  cap = MAX_BODY_BYTES,
): Promise<{ text: string; tooLarge: boolean } | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= cap) chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > cap }));
    req.on('error', () => resolve(null));
    req.on('close', () => {
      if (!req.complete) resolve(null);
    });
  });
}
