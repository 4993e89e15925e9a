import { type BaseUrl, parseBaseUrl } from './baseUrl';
import { type Clock, sleep, systemClock } from './clock';
import { type ApiClientOptions, type CallOptions } from './clientOptions';
import { ClientReports } from './clientReports';
import { ApiError, cancelledError } from './errors';
import { keyFingerprint } from './keyFingerprint';
import { type AnswerKind, type LastAnswer, lastAnswer } from './lastAnswers';
import { type RawResponse } from './listPages';
import { type LimiterRegistry, type RateLimiter, type RateLimitStatus } from './RateLimiter';
import { interpret, safeRequestId } from './response';
import { DEFAULT_RETRY, retryDelay, type RetryPolicy } from './retry';
import { maskSecrets } from './secretMask';
import { type RequestPriority, SharedRequests } from './SharedRequests';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUTS, Transport, type TransportResponse } from './transport';
import { plain, serverText } from '../util/serverText';

const ACTION_SEND_DEADLINE_MS = 10_000;
// Anything else cannot travel in a header (and would fail as a confusing network error).
const HEADER_SAFE_KEY = /^[\x21-\x7e]+$/;

export class RequestPipeline {
  readonly baseUrl: BaseUrl;
  readonly clock: Clock;
  readonly reports: ClientReports;
  private readonly transport: Transport;
  private readonly limiters: LimiterRegistry;
  private readonly retry: RetryPolicy;
  private readonly reads = new SharedRequests<RawResponse>();
  /** The last answer of each endpoint, for a user who asks what the server sent. */
  /** The last of each kind. */
  readonly answers = new Map<AnswerKind, LastAnswer>();
  private lastLimiter?: RateLimiter;
  private disposed = false;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = parseBaseUrl(options.baseUrl);
    this.transport = new Transport(
      { ...DEFAULT_TIMEOUTS, ...options.timeouts },
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      { origin: this.baseUrl.origin, settings: options.network, onWarning: options.onWarning },
    );
    this.limiters = options.limiters;
    this.clock = options.clock ?? systemClock;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.reports = new ClientReports(options, () => this.transport.route);
  }

  rateLimitStatus(): RateLimitStatus | undefined {
    return this.lastLimiter?.status();
  }

  // Never sent again, whatever the answer.
  post(path: string, body: string, options: CallOptions, kind: AnswerKind = 'action'): Promise<RawResponse> {
    return this.send('POST', path, body, options, kind);
  }

  async close(): Promise<void> {
    this.disposed = true;
    await this.transport.close();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.reads.abortAll();
    await this.transport.destroy();
  }

  async get(path: string, options: CallOptions = {}, kind?: AnswerKind): Promise<RawResponse> {
    const key = await this.requireKey();
    const id = `${keyFingerprint(key)}:${path}`;
    const urgency = options.urgency;
    const shared = this.reads.run(
      id,
      (signal, sharedUrgency) =>
        this.send('GET', path, undefined, { ...options, signal, urgency: sharedUrgency }, kind, key),
      options.signal,
      urgency?.priority ?? options.priority,
    );
    const stop = urgency?.onRaise(() => this.reads.raise(id));
    return stop ? shared.finally(stop) : shared;
  }

  private async requireKey(): Promise<string> {
    const key = await this.options.getKey();
    if (!key) throw new ApiError('noKey', 'No API key is set.', { maybeSent: false });
    if (!HEADER_SAFE_KEY.test(key)) {
      throw new ApiError('keyUnsendable', 'The API key contains characters that cannot be sent in a header.', {
        maybeSent: false,
      });
    }
    return key;
  }

  private async send(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    options: CallOptions,
    kind?: AnswerKind,
    knownKey?: string,
  ): Promise<RawResponse> {
    if (this.disposed) throw new ApiError('cancelled', 'The client was closed.');
    const key = knownKey ?? (await this.requireKey());
    const limiter = this.limiters.get(key, this.baseUrl.origin, this.options.requestsPerMinute ?? 100);
    this.lastLimiter = limiter;
    const headers: Record<string, string> = {
      authorization: `Bearer ${key}`,
      accept: 'application/json',
      'user-agent': this.options.userAgent,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const fullPath = this.baseUrl.pathPrefix + path;
    const secrets = this.reports.secrets(key);
    const context = { method, path, key, secrets };
    const sendBy = method === 'POST' ? this.clock.now() + ACTION_SEND_DEADLINE_MS : undefined;
    const lane = (): RequestPriority => options.urgency?.priority ?? options.priority ?? 'background';

    for (let attempt = 1; ; attempt++) {
      const release = await limiter
        .acquire({
          signal: options.signal,
          priority: options.priority,
          urgency: options.urgency,
          onWait: options.onWait,
          maxWaitMs: sendBy === undefined ? undefined : Math.max(0, sendBy - this.clock.now()),
        })
        .catch((error: unknown) => {
          throw error instanceof ApiError ? withRequest(error, method, path) : error;
        });
      const started = this.clock.now();
      let response: TransportResponse | undefined;
      try {
        try {
          // A POST may be abandoned while it waits for its turn, never once sent: the outcome must be known.
          const signal = method === 'GET' ? options.signal : undefined;
          response = await this.transport.send({
            origin: this.baseUrl.origin,
            method,
            path: fullPath,
            headers,
            body,
            signal,
            lane: lane(),
          });
          // Before the release: the next request let through must already know what this answer said.
          const warning = limiter.observe(response.status, response.headers);
          if (warning) this.reports.warn(warning);
        } finally {
          release(response?.status !== 429);
        }
        let json: unknown;
        try {
          json = await interpret(response, context, this.clock.now());
        } finally {
          if (kind) {
            const seen = {
              kind,
              method,
              path: maskSecrets(path, secrets),
              status: response.status,
              at: this.clock.now(),
            };
            this.answers.set(kind, lastAnswer(seen, response.body, json, secrets));
          }
        }
        this.reports.request(
          {
            method,
            path,
            status: response.status,
            durationMs: this.clock.now() - started,
            attempt,
            bytes: response.bytes,
            requestId: safeRequestId(response.headers['x-request-id'], secrets),
          },
          secrets,
        );
        return { json, headers: response.headers, bytes: response.bytes };
      } catch (caught) {
        const error = asApiError(caught);
        const retryInMs = this.disposed
          ? undefined
          : retryDelay(
              this.retry,
              method,
              error,
              attempt,
              this.options.random,
              options.priority === 'background' && lane() === 'background',
            );
        const requestId = safeRequestId(response?.headers['x-request-id'], secrets);
        this.reports.request(
          {
            method,
            path,
            status: response?.status,
            durationMs: this.clock.now() - started,
            attempt,
            requestId,
            error: `${error.kind}: ${error.message}`,
            retryInMs,
          },
          secrets,
        );
        if (retryInMs === undefined) {
          throw withRequest(error, method, path, response?.status, requestId, (text) => maskSecrets(text, secrets));
        }
        await sleep(this.clock, retryInMs, options.signal).catch(() => {
          throw cancelledError();
        });
      }
    }
  }
}

export function asApiError(caught: unknown): ApiError {
  return caught instanceof ApiError
    ? caught
    : new ApiError('badResponse', 'The response could not be read.', { cause: caught });
}

function withRequest(
  error: ApiError,
  method: string,
  path: string,
  status?: number,
  requestId?: string,
  mask: (text: string) => string = (t) => t,
): ApiError {
  return error.with(mask(error.message), {
    status: error.status ?? status,
    code: error.code === undefined ? undefined : mask(error.code),
    serverMessage: error.serverMessage === undefined ? undefined : serverText(mask(plain(error.serverMessage))),
    method,
    path: mask(path),
    requestId: error.requestId ?? requestId,
  });
}
