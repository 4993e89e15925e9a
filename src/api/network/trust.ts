import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import { type NetworkSettings } from './settings';

// Each client's own context, never a process-wide default.
export interface TlsOptions {
  readonly secureContext?: tls.SecureContext;
  readonly rejectUnauthorized: boolean;
}

export interface TrustPlan {
  readonly tls: TlsOptions;
  readonly sources: readonly string[];
  readonly warnings: readonly string[];
}

export interface TrustDeps {
  readonly readFile: (path: string) => string;
  // Node 22.15 and later.
  readonly getCACertificates?: (type: 'default' | 'system') => string[];
}

const nodeTls = tls as typeof tls & { getCACertificates?: TrustDeps['getCACertificates'] };
const defaultDeps: TrustDeps = {
  readFile: (path) => readFileSync(path, 'utf8'),
  getCACertificates: typeof nodeTls.getCACertificates === 'function' ? nodeTls.getCACertificates.bind(tls) : undefined,
};

export function planTrust(settings: NetworkSettings = {}, deps: TrustDeps = defaultDeps): TrustPlan {
  if (settings.strictSSL === false) {
    return {
      tls: { rejectUnauthorized: false },
      sources: [],
      warnings: [
        'TLS certificates are not checked, because http.proxyStrictSSL is false: anyone on the network path could read the API key.',
      ],
    };
  }
  const warnings: string[] = [];
  const added: Array<{ source: string; pems: readonly string[] }> = [];
  const extraPath = settings.env?.NODE_EXTRA_CA_CERTS?.trim();
  if (extraPath) {
    try {
      const text = deps.readFile(extraPath);
      if (text.includes('-----BEGIN CERTIFICATE-----')) added.push({ source: 'NODE_EXTRA_CA_CERTS', pems: [text] });
      else warnings.push('NODE_EXTRA_CA_CERTS names a file with no PEM certificate in it; it was ignored.');
    } catch (error) {
      warnings.push(`NODE_EXTRA_CA_CERTS could not be read (${errorCode(error)}); it was ignored.`);
    }
  }
  if (settings.systemCertificates === true && deps.getCACertificates) {
    try {
      added.push({ source: 'system', pems: deps.getCACertificates('system') });
    } catch (error) {
      warnings.push(`The operating system's certificates could not be read (${errorCode(error)}).`);
    }
  }
  if (added.every(({ pems }) => pems.length === 0)) {
    return { tls: { rejectUnauthorized: true }, sources: ['Node'], warnings };
  }
  // A `ca` list replaces Node's defaults rather than adding to them.
  const base = deps.getCACertificates?.('default') ?? tls.rootCertificates;
  const ca = [...new Set([...base, ...added.flatMap(({ pems }) => pems)])];
  try {
    return {
      tls: { secureContext: tls.createSecureContext({ ca }), rejectUnauthorized: true },
      sources: ['Node', ...added.filter(({ pems }) => pems.length > 0).map(({ source }) => source)],
      warnings,
    };
  } catch (error) {
    warnings.push(`The extra certificates could not be used (${errorCode(error)}); only Node's own are trusted.`);
    return { tls: { rejectUnauthorized: true }, sources: ['Node'], warnings };
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message.slice(0, 120) : 'unknown error';
}
