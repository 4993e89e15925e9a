/**
 * How VS Code's `http.*` settings and the proxy environment reach the API layer: plain data, read on the extension
 * side, so nothing under `src/api/` needs `vscode` and tests can hand in any environment they like.
 */
export interface NetworkSettings {
  /** `http.proxy`: the user's proxy address, possibly with `user:password@`. */
  readonly proxy?: string;
  /** `http.noProxy`: hosts to reach directly; when empty, `NO_PROXY`/`no_proxy` applies. */
  readonly noProxy?: readonly string[];
  /** `http.proxySupport`: `off` means never a proxy. */
  readonly proxySupport?: 'off' | 'on' | 'fallback' | 'override';
  /** `http.proxyAuthorization`: the `Proxy-Authorization` value to send, e.g. `Basic …`. */
  readonly proxyAuthorization?: string;
  /** `http.proxyStrictSSL`: `false` turns certificate checking off, because the user said so. */
  readonly strictSSL?: boolean;
  /** `http.systemCertificates`: also trust the operating system's certificate store (VS Code's default is on). */
  readonly systemCertificates?: boolean;
  /** The environment to read `HTTPS_PROXY`, `NO_PROXY`, `NODE_EXTRA_CA_CERTS` … from; never `process.env` itself here. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Settings come from JSON files people edit by hand: anything of the wrong type counts as unset, except that only
 * a literal `false` turns certificate checks off.
 */
export function normaliseNetworkSettings(raw: NetworkSettings = {}): NetworkSettings {
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value.trim() ? value.trim() : undefined;
  const list: unknown = raw.noProxy;
  const support: unknown = raw.proxySupport;
  const env: unknown = raw.env;
  return {
    proxy: text(raw.proxy),
    noProxy: Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : [],
    proxySupport: support === 'off' || support === 'on' || support === 'fallback' ? support : 'override',
    proxyAuthorization: text(raw.proxyAuthorization),
    strictSSL: raw.strictSSL !== false,
    systemCertificates: raw.systemCertificates === true,
    env: typeof env === 'object' && env !== null ? raw.env : {},
  };
}
