/**
 * The lazily loaded half of the extension: everything that needs undici. `src/api/lazy.ts` requires this module on
 * the first request, so activation never pays for the HTTP stack. Everything else the extension needs from `api/`
 * (errors, models, base-URL rules) is small and imported directly.
 */
import { ApiClient, type ApiClientOptions } from './ApiClient';
import { LimiterRegistry } from './limiterRegistry';

export { proxySecrets } from './network/secrets';

export function createApiClient(options: ApiClientOptions): ApiClient {
  return new ApiClient(options);
}

/** The rate limiters, one per key and origin: made once by the composition root and handed to every client. */
export function createLimiterRegistry(): LimiterRegistry {
  return new LimiterRegistry();
}
