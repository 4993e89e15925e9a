import { type JsonBound } from './json';
import { type ServerText } from '../util/serverText';

// Free of undici: the lazy bundle takes this very class from the activation bundle, so `instanceof` holds.

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

/** The UI words the rule: no English sentence reaches the user (`message` is for the log). */
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
  | { readonly rule: 'orderIdAmbiguous' }
  | { readonly rule: 'unknownAction'; readonly action: string }
  | { readonly rule: 'notJson'; readonly html: boolean; readonly excerpt: ServerText }
  | { readonly rule: 'tooComplex'; readonly bound: JsonBound; readonly limit: number }
  | { readonly rule: 'unexpectedBody'; readonly expected: ExpectedBody; readonly got: BodyShape }
  | { readonly rule: 'missingId'; readonly what: 'order' | 'invoice' }
  | { readonly rule: 'queueFull' }
  | { readonly rule: 'fieldMapInvalid'; readonly problem: FieldMapProblem; readonly key?: string }
  | { readonly rule: 'proxyDropped'; readonly address: string; readonly setting: string }
  | { readonly rule: 'proxyTimeout'; readonly address: string; readonly setting: string; readonly seconds: number };

export type FieldMapProblem =
  'notObject' | 'unknownKey' | 'notString' | 'badPointer' | 'tooLong' | 'tooDeep' | 'tooMany' | 'badScale';

export type ExpectedBody = 'account' | 'balance' | 'order' | 'orderList' | 'invoice' | 'invoiceList';

export type BodyShape =
  | { readonly type: 'empty' | 'null' | 'array' | 'emptyObject' }
  | { readonly type: 'object'; readonly keys: readonly ServerText[] }
  | { readonly type: 'value'; readonly typeName: string };

export interface ApiErrorFields {
  readonly status?: number;
  /** The server's `error` field, or the transport's code for proxy and certificate failures. */
  readonly code?: string;
  readonly serverMessage?: ServerText;
  readonly method?: string;
  /** Below the base URL: never the key, never the host. */
  readonly path?: string;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly maybeSent?: boolean;
  readonly transportCode?: string;
  readonly tls?: boolean;
  /** host:port, never credentials. */
  readonly proxy?: ProxyRef;
  readonly reason?: ErrorReason;
}

export interface ApiErrorDetails extends ApiErrorFields {
  readonly cause?: unknown;
}

interface ProxyRef {
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

  with(message: string, changes: ApiErrorFields): ApiError {
    const { kind, name: _name, ...fields } = this;
    return new ApiError(kind, message, { ...fields, ...changes, cause: this });
  }
}

export function cancelledError(details: ApiErrorDetails = {}): ApiError {
  return new ApiError('cancelled', 'The request was cancelled.', details);
}
