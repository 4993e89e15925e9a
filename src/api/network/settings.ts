// Read on the extension side, so nothing under `src/api/` needs `vscode`; `env` is never `process.env` itself here.
export interface NetworkSettings {
  readonly proxy?: string;
  readonly noProxy?: readonly string[];
  readonly proxySupport?: 'off' | 'on' | 'fallback' | 'override';
  readonly proxyAuthorization?: string;
  readonly strictSSL?: boolean;
  readonly systemCertificates?: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

// Hand-edited JSON: a wrong type counts as unset, and only a literal `false` turns certificate checks off.
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
