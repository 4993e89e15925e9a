import * as vscode from 'vscode';
import { type ApiError } from '../api/errors';
import { reasonText } from './reasonText';

/** A few words for the line above the tree; the notification and the log have the whole story. */
export function shortReason(error: ApiError): string {
  if (error.proxy && !error.tls) {
    return vscode.l10n.t(
      'proxy from {0}: {1}',
      error.proxy.setting,
      error.status ? `HTTP ${error.status}` : (error.transportCode ?? error.kind),
    );
  }
  switch (error.kind) {
    case 'server':
      return vscode.l10n.t('HTTP {0}', error.status ?? '5xx');
    case 'network':
      return error.transportCode === 'ECONNREFUSED'
        ? vscode.l10n.t('connection refused')
        : error.tls
          ? vscode.l10n.t('TLS certificate rejected')
          : vscode.l10n.t('network error ({0})', error.transportCode ?? '?');
    case 'timeout':
      return vscode.l10n.t('no answer in time');
    case 'rateLimited':
      return vscode.l10n.t('rate limited');
    case 'badResponse':
      return vscode.l10n.t('the answer could not be read');
    case 'noKey':
      return vscode.l10n.t('no API key');
    case 'keyUnsendable':
      return vscode.l10n.t('the API key cannot be sent');
    case 'unauthorized':
      return vscode.l10n.t('the API key was rejected');
    case 'notFound':
      return vscode.l10n.t('not found (HTTP {0})', error.status ?? 404);
    case 'invalidRequest':
      return vscode.l10n.t('refused (HTTP {0})', error.status ?? 400);
    case 'badConfig':
      return error.reason ? reasonText(error.reason) : error.message;
    case 'cancelled':
      return vscode.l10n.t('cancelled');
  }
}
