export type ApiRouteName = 'me' | 'orders' | 'order' | 'action' | 'balance' | 'invoices';
export type PageRouteName = 'clientInvoice' | 'clientApiKeys' | 'clientLogin';

/** Public pages of the provider's web site (auth: false) need no API key and are not rate limited. */
export type RouteDef =
  | { name: ApiRouteName; method: string; pattern: string; auth: true }
  | { name: PageRouteName; method: string; pattern: string; auth: false };

export const ROUTES: readonly RouteDef[] = [
  { name: 'me', method: 'GET', pattern: '/api/v1/me', auth: true },
  { name: 'orders', method: 'GET', pattern: '/api/v1/orders', auth: true },
  { name: 'order', method: 'GET', pattern: '/api/v1/orders/:id', auth: true },
  { name: 'action', method: 'POST', pattern: '/api/v1/orders/:id/action', auth: true },
  { name: 'balance', method: 'GET', pattern: '/api/v1/balance', auth: true },
  { name: 'invoices', method: 'GET', pattern: '/api/v1/invoices', auth: true },
  { name: 'clientInvoice', method: 'GET', pattern: '/client/invoices/:id', auth: false },
  { name: 'clientApiKeys', method: 'GET', pattern: '/client/api-keys', auth: false },
  { name: 'clientLogin', method: 'GET', pattern: '/client/login', auth: false },
];

export interface RouteMatch {
  def: RouteDef;
  /** e.g. 'GET /api/v1/orders/:id', as recorded in the log. */
  label: string;
  /** The raw (still percent-encoded) `:id` segment. */
  rawId?: string;
}

/**
 * Matches on the raw path split by '/', deliberately without normalising '..' or '%2E%2E': the mock must show
 * exactly what the client put on the wire.
 */
export function matchRoute(method: string, rawPathOnly: string): RouteMatch | undefined {
  const got = rawPathOnly.split('/');
  for (const def of ROUTES) {
    if (def.method !== method) continue;
    const want = def.pattern.split('/');
    if (want.length !== got.length) continue;
    let rawId: string | undefined;
    const ok = want.every((seg, i) => {
      const actual = got[i] ?? '';
      if (!seg.startsWith(':')) return seg === actual;
      rawId = actual;
      return actual !== '';
    });
    if (ok) return { def, label: `${def.method} ${def.pattern}`, rawId };
  }
  return undefined;
}

/** decodeURIComponent without throwing; undefined for a malformed escape. */
export function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
