/**
 * The lazily loaded half of the extension: everything that needs undici. `src/api/lazy.ts` requires this module on
 * the first request, so activation never pays for the HTTP stack.
 */
import { ApiClient, type ApiClientOptions } from './ApiClient';

export { ApiClient, type ApiClientOptions, type CallOptions, type RequestLogEntry, LIMITER_WINDOW_MS } from './ApiClient';
export { ApiError, isApiError, type ApiErrorKind } from './errors';
export { parseBaseUrl } from './baseUrl';
export * from './models';

export function createApiClient(options: ApiClientOptions): ApiClient {
  return new ApiClient(options);
}
