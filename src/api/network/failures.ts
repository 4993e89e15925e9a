import { ApiError } from '../errors';
import { ConnectFailure } from './connectGuard';
import { type Route } from './route';

const UNREACHABLE = new Map<string, string>([
  ['ECONNREFUSED', 'the connection was refused'],
  ['ENOTFOUND', 'its name does not resolve'],
  ['EAI_AGAIN', 'its name does not resolve'],
  ['EHOSTUNREACH', 'it is unreachable'],
  ['ENETUNREACH', 'it is unreachable'],
  ['EADDRNOTAVAIL', 'it is unreachable'],
]);

// The typical sign of TLS inspection.
const UNTRUSTED = new Set([
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);

const DROPPED = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE']);

// undici's wording when a proxy answers CONNECT with anything but 200 (lib/dispatcher/proxy-agent.js).
const TUNNEL_REFUSED = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/;

// Messages name the proxy by host:port and its setting, never its credentials.
export function classifyRouteFailure(error: unknown, code: string | undefined, route: Route): ApiError | undefined {
  const base = { cause: error, maybeSent: false, transportCode: code };
  if (route.kind === 'proxy') {
    const proxy = { address: route.proxy.address, setting: route.setting };
    const via = `The proxy ${proxy.address} (from ${proxy.setting})`;
    const status = tunnelStatus(error);
    if (status === 407) {
      const what = route.proxy.authorization ? 'did not accept the credentials it was given' : 'asks for credentials';
      return new ApiError(
        'badConfig',
        `${via} ${what} (HTTP 407). Put them in the proxy address (http://user:password@host:port) or in http.proxyAuthorization.`,
        {
          ...base,
          status,
          code: 'proxy_auth',
          proxy,
        },
      );
    }
    if (status !== undefined) {
      return new ApiError('network', `${via} refused to open a tunnel to the API (HTTP ${status}).`, {
        ...base,
        status,
        code: 'proxy_refused',
        proxy,
      });
    }
    if (error instanceof ConnectFailure && error.phase === 'timeout') {
      const seconds = Math.max(1, Math.ceil(error.deadlineMs / 1000));
      return new ApiError('timeout', `${via} did not open a tunnel to the API within ${seconds} s.`, {
        ...base,
        code: 'proxy_timeout',
        proxy,
        reason: { rule: 'proxyTimeout', ...proxy, seconds },
      });
    }
    const reason = code === undefined ? undefined : UNREACHABLE.get(code);
    if (reason !== undefined) {
      return new ApiError(
        'network',
        `${via} cannot be reached: ${reason} (${code}). Check ${proxy.setting}, or list the API's host in http.noProxy to connect directly.`,
        {
          ...base,
          code: 'proxy_unreachable',
          proxy,
        },
      );
    }
  }
  if (route.kind === 'proxy' && error instanceof ConnectFailure && (code === undefined || DROPPED.has(code))) {
    const proxy = { address: route.proxy.address, setting: route.setting };
    return new ApiError(
      'network',
      `The proxy ${proxy.address} (from ${proxy.setting}) closed the connection before opening a tunnel to the API${code ? ` (${code})` : ''}.`,
      { ...base, code: 'proxy_dropped', proxy, reason: { rule: 'proxyDropped', ...proxy } },
    );
  }
  if (code !== undefined && UNTRUSTED.has(code)) {
    return new ApiError(
      'network',
      `The server's TLS certificate was rejected (${code}): it is not signed by an authority this extension trusts. If your network inspects TLS with its own root certificate, turn on http.systemCertificates with that root in the system's store, or point NODE_EXTRA_CA_CERTS at it; http.proxyStrictSSL set to false turns the check off.`,
      {
        ...base,
        tls: true,
        code: 'untrusted_certificate',
        proxy: route.kind === 'proxy' ? { address: route.proxy.address, setting: route.setting } : undefined,
      },
    );
  }
  return undefined;
}

export function invalidRouteError(route: Extract<Route, { kind: 'invalid' }>): ApiError {
  return new ApiError('badConfig', route.problem, {
    code: 'proxy_invalid',
    maybeSent: false,
    proxy: { address: '', setting: route.setting },
  });
}

function tunnelStatus(error: unknown, depth = 0): number | undefined {
  if (depth > 4 || !(error instanceof Error)) return undefined;
  const match = TUNNEL_REFUSED.exec(error.message);
  if (match?.[1]) return Number(match[1]);
  return tunnelStatus(error.cause, depth + 1);
}
