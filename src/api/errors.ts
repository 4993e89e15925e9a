import { type JsonBound } from './json';
import { type ServerText } from '../util/serverText';

/**
 * The one error type the API layer throws. Kept free of undici so the activation bundle can use it; the lazily loaded
 * bundles take this very class from the activation bundle (see esbuild.js), so `instanceof` holds everywhere.
 */

export type ApiErrorKind =
  | 'noKey'
  | 'keyUnsendable'
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

/**
 * Why a request was refused before it was sent, or why its answer could not be read, with the values the message
 * needs. The API layer names the rule; the UI words it (localised), so no English sentence travels from here to the
 * user (the English `message` beside it is for the log).
 */
export type ErrorReason =
  | { readonly rule: 'baseUrlMissing' }
  | { readonly rule: 'baseUrlInvalid' }
  | { readonly rule: 'baseUrlScheme' }
  | { readonly rule: 'baseUrlPlainHttp' }
  | { readonly rule: 'baseUrlPort0' }
  | { readonly rule: 'baseUrlCredentials' }
  | { readonly rule: 'baseUrlQuery' }
  | { readonly rule: 'orderIdEmpty' }
  | { readonly rule: 'orderIdUnsendable' }
  /** Several orders of the list carry this id: a request for it could reach any of them, so none is sent. */
  | { readonly rule: 'orderIdAmbiguous' }
  | { readonly rule: 'unknownAction'; readonly action: string }
  | { readonly rule: 'notJson'; readonly html: boolean; readonly excerpt: ServerText }
  /** A JSON answer over one of json.ts's bounds, refused unread. */
  | { readonly rule: 'tooComplex'; readonly bound: JsonBound; readonly limit: number }
  | { readonly rule: 'unexpectedBody'; readonly expected: ExpectedBody; readonly got: BodyShape }
  | { readonly rule: 'missingId'; readonly what: 'order' | 'invoice' }
  | { readonly rule: 'queueFull' }
  /** An account's field map broke one of its rules (fieldMap.ts); `key` is the map's own name for the field. */
  | { readonly rule: 'fieldMapInvalid'; readonly problem: FieldMapProblem; readonly key?: string }
  | { readonly rule: 'proxyDropped'; readonly address: string; readonly setting: string }
  | { readonly rule: 'proxyTimeout'; readonly address: string; readonly setting: string; readonly seconds: number };

export type FieldMapProblem =
  'notObject' | 'unknownKey' | 'notString' | 'badPointer' | 'tooLong' | 'tooDeep' | 'tooMany' | 'badScale';

/** What a reader of server data expected to find (`unexpectedBody`). */
export type ExpectedBody = 'account' | 'balance' | 'order' | 'orderList' | 'invoice' | 'invoiceList';

/** What it found instead: a few words' worth, for the log and the user. `keys` are the first few, cut to 30. */
export type BodyShape =
  | { readonly type: 'empty' | 'null' | 'array' | 'emptyObject' }
  | { readonly type: 'object'; readonly keys: readonly ServerText[] }
  | { readonly type: 'value'; readonly typeName: string };

/** Everything an ApiError may carry besides its kind and message: the one list of its fields. */
export interface ApiErrorFields {
  readonly status?: number;
  /** The server's machine-readable `error` field, or the transport's own code for proxy and certificate failures. */
  readonly code?: string;
  /** The server's human-readable `message` field. */
  readonly serverMessage?: ServerText;
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
  /** A rule of ours that refused the request, for the UI to word. */
  readonly reason?: ErrorReason;
}

export interface ApiErrorDetails extends ApiErrorFields {
  readonly cause?: unknown;
}

export interface ProxyRef {
  readonly address: string;
  readonly setting: string;
}

// The class takes its fields from ApiErrorFields, so the list is written once.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface ApiError extends ApiErrorFields {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    details: ApiErrorDetails = {},
  ) {
    const { cause, ...fields } = details;
    super(message, cause === undefined ? undefined : { cause });
    Object.assign(this, fields);
  }

  /** The same failure told with another message and some fields changed; the original becomes the cause. */
  with(message: string, changes: ApiErrorFields): ApiError {
    const { kind, name: _name, ...fields } = this;
    return new ApiError(kind, message, { ...fields, ...changes, cause: this });
  }
}

export function cancelledError(details: ApiErrorDetails = {}): ApiError {
  return new ApiError('cancelled', 'The request was cancelled.', details);
}
