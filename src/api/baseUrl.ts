import { ApiError } from './errors';

export interface BaseUrl {
  readonly origin: string;
  readonly pathPrefix: string;
  readonly href: string;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

// The key travels in every request: plain HTTP only on loopback. No error quotes what was typed: it may be the key.
export function parseBaseUrl(input: string): BaseUrl {
  const text = input.trim();
  if (!text) throw new ApiError('badConfig', 'No base URL is configured.', { reason: { rule: 'baseUrlMissing' } });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ApiError('badConfig', 'The base URL is not a valid URL.', { reason: { rule: 'baseUrlInvalid' } });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ApiError('badConfig', 'The base URL must start with https://.', { reason: { rule: 'baseUrlScheme' } });
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ApiError('badConfig', 'The base URL must use https:// (plain http:// is only allowed for localhost).', {
      reason: { rule: 'baseUrlPlainHttp' },
    });
  }
  if (url.port === '0') {
    throw new ApiError('badConfig', 'The base URL names port 0, which no server listens on.', {
      reason: { rule: 'baseUrlPort0' },
    });
  }
  if (url.username || url.password) {
    throw new ApiError('badConfig', 'The base URL must not contain a user name or password.', {
      reason: { rule: 'baseUrlCredentials' },
    });
  }
  if (url.search || url.hash || /[?#]/.test(text)) {
    throw new ApiError('badConfig', 'The base URL must not contain a query (?…) or fragment (#…).', {
      reason: { rule: 'baseUrlQuery' },
    });
  }
  // People paste the API root they see in the documentation; the client adds /api/v1 itself.
  const pathPrefix = trimTrailingSlashes(url.pathname).replace(/\/api\/v1$/i, '');
  return { origin: url.origin, pathPrefix, href: url.origin + pathPrefix };
}

function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

// A segment of only dots would be resolved as `.`/`..` by the server or a proxy: those dots are escaped too.
export function encodePathSegment(id: string): string {
  if (id === '') throw new ApiError('invalidRequest', 'The order id is empty.', { reason: { rule: 'orderIdEmpty' } });
  let encoded: string;
  try {
    encoded = encodeURIComponent(id);
  } catch {
    // A lone surrogate cannot be written as UTF-8.
    throw new ApiError(
      'invalidRequest',
      'The order id contains characters that cannot be sent, so no action was taken.',
      {
        reason: { rule: 'orderIdUnsendable' },
      },
    );
  }
  return /^\.+$/.test(id) ? id.replace(/\./g, '%2E') : encoded;
}
