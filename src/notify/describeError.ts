import * as vscode from 'vscode';
import { type ApiError } from '../api/errors';
import { hostOf } from '../util/hosts';
import { forMessage } from './inert';
import { reasonText } from './reasonText';

export type ErrorAction =
  'retry' | 'setApiKey' | 'openApiKeysPage' | 'showLog' | 'openSettings' | 'openNetworkSettings' | 'refresh';

export interface ErrorReport {
  readonly message: string;
  readonly actions: readonly ErrorAction[];
  readonly severity: 'error' | 'warning' | 'info';
}

type Told = (read: string, notSent: string, maybeSent: string) => string;

function failed(message: string, actions: readonly ErrorAction[]): ErrorReport {
  return { message, actions, severity: 'error' };
}

/** An action's failure also says whether it may have reached the server: that decides what to do next. */
export function describeError(error: ApiError, baseUrl: string, during?: 'action'): ErrorReport {
  const host = hostOf(baseUrl) || vscode.l10n.t('the hosting API');
  const said = error.serverMessage ? forMessage(error.serverMessage) : undefined;
  const sent = during !== 'action' ? 'read' : error.maybeSent ? 'maybeSent' : 'notSent';
  const told: Told = (read, notSent, maybeSent) => ({ read, notSent, maybeSent })[sent];
  const next: ErrorAction[] = during === 'action' ? ['refresh', 'showLog'] : ['retry', 'showLog'];
  const network = describeNetworkError(error, host);
  if (network) return network;
  switch (error.kind) {
    case 'noKey':
      return failed(vscode.l10n.t('No API key is set.'), ['setApiKey']);
    case 'keyUnsendable':
      return failed(
        vscode.l10n.t(
          'The API key contains spaces, line breaks or other characters that cannot be sent. Set it again.',
        ),
        ['setApiKey'],
      );
    case 'unauthorized':
      return failed(
        said
          ? vscode.l10n.t(
              'The hosting API rejected the API key: it may have been revoked or mistyped. It said: "{0}"',
              said,
            )
          : vscode.l10n.t('The hosting API rejected the API key: it may have been revoked or mistyped.'),
        ['setApiKey', 'openApiKeysPage'],
      );
    case 'notFound':
      if (error.path?.startsWith('/api/v1/orders/')) {
        return failed(
          said
            ? vscode.l10n.t('The hosting API does not know this server any more. It said: "{0}"', said)
            : vscode.l10n.t('The hosting API does not know this server any more.'),
          ['refresh'],
        );
      }
      return failed(
        said
          ? vscode.l10n.t(
              '{0} has no {1} (HTTP 404). Check the base URL. The server said: "{2}"',
              host,
              error.path ?? '?',
              said,
            )
          : vscode.l10n.t('{0} has no {1} (HTTP 404). Check the base URL.', host, error.path ?? '?'),
        ['openSettings', 'showLog'],
      );
    case 'invalidRequest':
      if (error.reason) return failed(reasonText(error.reason), ['showLog']);
      return failed(
        said
          ? vscode.l10n.t('The hosting API refused: {0}', said)
          : vscode.l10n.t('The hosting API refused the request ({0}).', error.message),
        ['refresh', 'showLog'],
      );
    case 'rateLimited':
      return {
        // A reason of ours (a full queue) already says that nothing was sent.
        message: error.reason ? reasonText(error.reason) : rateLimitMessage(error.retryAfterMs, told),
        actions: ['showLog'],
        severity: 'warning',
      };
    case 'server': {
      const status = error.status ?? '5xx';
      return failed(
        told(
          vscode.l10n.t('{0} had a problem (HTTP {1}). Try again in a moment.', host, status),
          vscode.l10n.t('{0} had a problem (HTTP {1}). Try again in a moment. The action was not sent.', host, status),
          vscode.l10n.t(
            '{0} had a problem (HTTP {1}). Try again in a moment. The action may have reached the hosting API: check the server before trying again.',
            host,
            status,
          ),
        ),
        next,
      );
    }
    case 'network':
      if (error.tls) {
        return failed(
          vscode.l10n.t(
            "{0}'s TLS certificate was rejected ({1}). Check the base URL.",
            host,
            error.transportCode ?? 'TLS',
          ),
          ['openSettings', 'showLog'],
        );
      }
      return failed(networkMessage(host, error.transportCode, told), next);
    case 'timeout':
      return failed(
        told(
          vscode.l10n.t('{0} did not answer in time.', host),
          vscode.l10n.t('{0} did not answer in time. The action was not sent.', host),
          vscode.l10n.t(
            '{0} did not answer in time. The action may have reached the hosting API: check the server before trying again.',
            host,
          ),
        ),
        next,
      );
    case 'badResponse':
      return failed(
        vscode.l10n.t(
          'The answer from {0} could not be read: {1}',
          host,
          error.reason ? reasonText(error.reason) : error.message,
        ),
        ['showLog'],
      );
    case 'badConfig':
      return failed(error.reason ? reasonText(error.reason) : error.message, ['openSettings']);
    case 'cancelled':
      return { message: vscode.l10n.t('Cancelled.'), actions: [], severity: 'info' };
  }
}

export function actionLabel(action: ErrorAction): string {
  return {
    retry: vscode.l10n.t('Retry'),
    setApiKey: vscode.l10n.t('Set API Key'),
    openApiKeysPage: vscode.l10n.t('Open API Keys Page'),
    showLog: vscode.l10n.t('Show Log'),
    openSettings: vscode.l10n.t('Open Settings'),
    openNetworkSettings: vscode.l10n.t('Open Proxy Settings'),
    refresh: vscode.l10n.t('Refresh'),
  }[action];
}

/** Seconds for a short wait; for a long one, the time to come back. */
function rateLimitMessage(retryAfterMs: number | undefined, told: Told): string {
  const wait = Math.max(1, Math.ceil((retryAfterMs ?? 5_000) / 1000));
  if (wait < 120) {
    return told(
      vscode.l10n.t('The hosting API is limiting requests; try again in {0} s.', wait),
      vscode.l10n.t('The hosting API is limiting requests; try again in {0} s. The action was not sent.', wait),
      vscode.l10n.t(
        'The hosting API is limiting requests; try again in {0} s. The action may have reached the hosting API: check the server before trying again.',
        wait,
      ),
    );
  }
  const at = new Date(Date.now() + wait * 1000).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  return told(
    vscode.l10n.t('The hosting API is limiting requests; try again after {0}.', at),
    vscode.l10n.t('The hosting API is limiting requests; try again after {0}. The action was not sent.', at),
    vscode.l10n.t(
      'The hosting API is limiting requests; try again after {0}. The action may have reached the hosting API: check the server before trying again.',
      at,
    ),
  );
}

/** Settings are named, never their values (a proxy address may carry credentials). */
function describeNetworkError(error: ApiError, host: string): ErrorReport | undefined {
  // Only the transport sets these; a server's own `error` field with the same words must not be taken for them.
  if (!error.proxy && !error.tls) return undefined;
  const address = error.proxy?.address ?? '?';
  const setting = error.proxy?.setting ?? 'http.proxy';
  const actions: ErrorAction[] = ['openNetworkSettings', 'showLog'];
  switch (error.code ?? '') {
    case 'proxy_auth':
      return failed(
        vscode.l10n.t(
          'The proxy {0} (from {1}) requires credentials (HTTP 407). Put them in the proxy address (http://user:password@host:port) or in http.proxyAuthorization.',
          address,
          setting,
        ),
        actions,
      );
    case 'proxy_unreachable':
      return failed(
        vscode.l10n.t(
          'Cannot reach the proxy {0} (from {1}, {2}). Check {1}, or add {3} to http.noProxy to connect directly.',
          address,
          setting,
          error.transportCode ?? '?',
          host,
        ),
        ['retry', ...actions],
      );
    case 'proxy_refused':
      return failed(
        vscode.l10n.t(
          'The proxy {0} (from {1}) refused to connect to {2} (HTTP {3}).',
          address,
          setting,
          host,
          error.status ?? '?',
        ),
        ['retry', ...actions],
      );
    case 'proxy_invalid':
      return failed(error.message, actions);
    case 'proxy_dropped':
    case 'proxy_timeout':
      return error.reason ? failed(reasonText(error.reason), ['retry', ...actions]) : undefined;
    case 'untrusted_certificate':
      return failed(
        vscode.l10n.t(
          "{0}'s TLS certificate is not signed by an authority this extension trusts ({1}). If your network inspects TLS, turn on http.systemCertificates and install its root certificate in the system store, or point NODE_EXTRA_CA_CERTS at that certificate; setting http.proxyStrictSSL to false turns the check off.",
          host,
          error.transportCode ?? 'TLS',
        ),
        actions,
      );
    default:
      return undefined;
  }
}

function networkMessage(host: string, transportCode: string | undefined, told: Told): string {
  const code = transportCode ?? '';
  switch (code) {
    case 'ECONNREFUSED':
      return told(
        vscode.l10n.t('Cannot reach {0}: the connection was refused. Is the hosting API up?', host),
        vscode.l10n.t(
          'Cannot reach {0}: the connection was refused. Is the hosting API up? The action was not sent.',
          host,
        ),
        vscode.l10n.t(
          'Cannot reach {0}: the connection was refused. Is the hosting API up? The action may have reached the hosting API: check the server before trying again.',
          host,
        ),
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return told(
        vscode.l10n.t('Cannot find {0}: the name does not resolve. Check the base URL and your network.', host),
        vscode.l10n.t(
          'Cannot find {0}: the name does not resolve. Check the base URL and your network. The action was not sent.',
          host,
        ),
        vscode.l10n.t(
          'Cannot find {0}: the name does not resolve. Check the base URL and your network. The action may have reached the hosting API: check the server before trying again.',
          host,
        ),
      );
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return told(
        vscode.l10n.t('The connection to {0} broke off ({1}).', host, code),
        vscode.l10n.t('The connection to {0} broke off ({1}). The action was not sent.', host, code),
        vscode.l10n.t(
          'The connection to {0} broke off ({1}). The action may have reached the hosting API: check the server before trying again.',
          host,
          code,
        ),
      );
    default: {
      const why = code || vscode.l10n.t('network error');
      return told(
        vscode.l10n.t('Cannot reach {0} ({1}).', host, why),
        vscode.l10n.t('Cannot reach {0} ({1}). The action was not sent.', host, why),
        vscode.l10n.t(
          'Cannot reach {0} ({1}). The action may have reached the hosting API: check the server before trying again.',
          host,
          why,
        ),
      );
    }
  }
}
