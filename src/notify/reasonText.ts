import * as vscode from 'vscode';
import { type ErrorReason } from '../api/errors';
import { type KeyStoreError } from '../auth/KeyStore';

/** A rule of ours that refused a request, in the user's language. */
export function reasonText(reason: ErrorReason): string {
  switch (reason.rule) {
    case 'baseUrlMissing':
      return vscode.l10n.t('No base URL is configured.');
    case 'baseUrlInvalid':
      return vscode.l10n.t('The base URL "{0}" is not a valid URL.', reason.text);
    case 'baseUrlScheme':
      return vscode.l10n.t('The base URL must start with https:// (got {0}).', reason.scheme);
    case 'baseUrlPlainHttp':
      return vscode.l10n.t('The base URL must use https:// (plain http:// is only allowed for localhost).');
    case 'baseUrlPort0':
      return vscode.l10n.t('The base URL names port 0, which no server listens on.');
    case 'baseUrlCredentials':
      return vscode.l10n.t('The base URL must not contain a user name or password.');
    case 'baseUrlQuery':
      return vscode.l10n.t('The base URL must not contain a query (?…) or fragment (#…).');
    case 'orderIdEmpty':
      return vscode.l10n.t('The server ID is empty.');
    case 'orderIdUnsendable':
      return vscode.l10n.t('The server ID contains characters that cannot be sent, so no action was taken.');
    case 'unknownAction':
      return vscode.l10n.t('Unknown action "{0}".', reason.action);
    case 'notJson':
      return reason.html
        ? vscode.l10n.t('The hosting API answered with an HTML page instead of JSON: "{0}".', reason.excerpt)
        : vscode.l10n.t('The hosting API answered with something that is not JSON: "{0}".', reason.excerpt);
  }
}

/** What went wrong with VS Code's secret storage; the platform's own words go in parentheses. */
export function keyStoreText(error: KeyStoreError): string {
  switch (error.operation) {
    case 'read':
      return vscode.l10n.t("VS Code's secret storage could not be read ({0}).", error.detail);
    case 'save':
      return vscode.l10n.t("VS Code's secret storage could not save the key ({0}).", error.detail);
    case 'remove':
      return vscode.l10n.t("VS Code's secret storage could not remove the key ({0}).", error.detail);
  }
}
