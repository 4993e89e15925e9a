/** The one error type the API layer throws. Kept free of undici so the activation bundle can use it. */

export type ApiErrorKind =
  | 'unauthorized'
  | 'notFound'
  | 'invalidRequest'
  | 'rateLimited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'badResponse'
  | 'badConfig'
  | 'cancelled';

export interface ApiErrorDetails {
  readonly status?: number;
  /** The server's machine-readable `error` field. */
  readonly code?: string;
  /** The server's human-readable `message` field. */
  readonly serverMessage?: string;
  readonly method?: string;
  /** Path relative to the base URL, e.g. `/api/v1/orders/12`: never the key, never the host. */
  readonly path?: string;
  readonly requestId?: string;
  /** For rateLimited: how long the server asked us to wait. */
  readonly retryAfterMs?: number;
  /** For a POST that failed on the way: whether the server may have received it. */
  readonly maybeSent?: boolean;
  /** The network layer's code, e.g. `ECONNREFUSED` or `CERT_HAS_EXPIRED`. */
  readonly transportCode?: string;
  /** The failure was the server's TLS certificate. */
  readonly tls?: boolean;
  /** The proxy the request went through (host:port, never credentials) and the setting that named it. */
  readonly proxy?: ProxyRef;
  readonly cause?: unknown;
}

export interface ProxyRef {
  readonly address: string;
  readonly setting: string;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status?: number;
  readonly code?: string;
  readonly serverMessage?: string;
  readonly method?: string;
  readonly path?: string;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly maybeSent?: boolean;
  readonly transportCode?: string;
  readonly tls?: boolean;
  readonly proxy?: ProxyRef;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    details: ApiErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.code = details.code;
    this.serverMessage = details.serverMessage;
    this.method = details.method;
    this.path = details.path;
    this.requestId = details.requestId;
    this.retryAfterMs = details.retryAfterMs;
    this.maybeSent = details.maybeSent;
    this.transportCode = details.transportCode;
    this.tls = details.tls;
    this.proxy = details.proxy;
  }
}

/**
 * The activation bundle and the lazily loaded API bundle each carry their own copy of this module, so `instanceof`
 * cannot be trusted across them: recognise the error by its shape.
 */
export function isApiError(error: unknown): error is ApiError {
  return (
    error instanceof Error &&
    error.name === 'ApiError' &&
    typeof (error as Partial<ApiError>).kind === 'string'
  );
}

export function cancelledError(details: ApiErrorDetails = {}): ApiError {
  return new ApiError('cancelled', 'The request was cancelled.', details);
}
