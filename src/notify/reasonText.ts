import * as vscode from 'vscode';
import { type BodyShape, type ErrorReason, type ExpectedBody, type FieldMapProblem } from '../api/errors';
import { type JsonBound } from '../api/json';
import { type KeyStoreError } from '../auth/KeyStore';
import { forMessage } from './inert';

/** A rule of ours that refused a request, in the user's language. */
export function reasonText(reason: ErrorReason): string {
  switch (reason.rule) {
    case 'baseUrlMissing':
      return vscode.l10n.t('No base URL is configured.');
    case 'baseUrlInvalid':
      return vscode.l10n.t('The base URL is not a valid URL: write it as https://panel.example.com.');
    case 'baseUrlScheme':
      return vscode.l10n.t('The base URL must start with https://.');
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
    case 'orderIdAmbiguous':
      return vscode.l10n.t(
        'Several servers in the list have this ID, so the hosting API cannot tell which one is meant. Nothing was sent.',
      );
    case 'unknownAction':
      return vscode.l10n.t('Unknown action "{0}".', reason.action);
    case 'notJson':
      return reason.html
        ? vscode.l10n.t(
            'The hosting API answered with an HTML page instead of JSON: "{0}".',
            forMessage(reason.excerpt),
          )
        : vscode.l10n.t('The hosting API answered with something that is not JSON: "{0}".', forMessage(reason.excerpt));
    case 'tooComplex':
      return tooComplexText(reason.bound, reason.limit.toLocaleString());
    case 'unexpectedBody':
      return expectedText(reason.expected, shapeText(reason.got));
    case 'missingId':
      return reason.what === 'order'
        ? vscode.l10n.t('Expected an order with an id field (id, order_id, uuid…).')
        : vscode.l10n.t('Expected an invoice with an id or number.');
    case 'fieldMapInvalid':
      return fieldMapText(reason.problem, reason.key === undefined ? '' : forMessage(reason.key, 40));
    case 'queueFull':
      return vscode.l10n.t('Too many requests were waiting for the hosting API, so this one was not sent.');
    case 'proxyDropped':
      return vscode.l10n.t(
        "The proxy {0} (from {1}) closed the connection before opening a tunnel to the hosting API. Check {1}, or add the API's host to http.noProxy to connect directly.",
        reason.address,
        reason.setting,
      );
    case 'proxyTimeout':
      return vscode.l10n.t(
        "The proxy {0} (from {1}) did not open a tunnel to the hosting API within {2} s. Check {1}, or add the API's host to http.noProxy to connect directly.",
        reason.address,
        reason.setting,
        reason.seconds,
      );
  }
}

/** Why a field map was refused; nothing is read through it. */
function fieldMapText(problem: FieldMapProblem, key: string): string {
  switch (problem) {
    case 'notObject':
      return vscode.l10n.t('The field map is not an object of pointers, so it was not used.');
    case 'unknownKey':
      return vscode.l10n.t('The field map names "{0}", which is not a field it can map, so it was not used.', key);
    case 'notString':
      return vscode.l10n.t('The field map\'s "{0}" is not a JSON Pointer text, so the map was not used.', key);
    case 'badPointer':
      return vscode.l10n.t(
        'The field map\'s "{0}" is not a JSON Pointer (write it as /data/0/name), so the map was not used.',
        key,
      );
    case 'tooLong':
      return vscode.l10n.t('The field map\'s "{0}" is longer than 200 characters, so the map was not used.', key);
    case 'tooDeep':
      return vscode.l10n.t('The field map\'s "{0}" goes more than 16 levels deep, so the map was not used.', key);
    case 'tooMany':
      return vscode.l10n.t('The field map has more entries than there are fields to map, so it was not used.');
    case 'badScale':
      return vscode.l10n.t('The field map\'s amount scale must be "units" or "minor", so the map was not used.');
  }
}

/** Which bound a JSON answer broke (`tooComplex`). */
function tooComplexText(bound: JsonBound, limit: string): string {
  switch (bound) {
    case 'depth':
      return vscode.l10n.t(
        'The answer nests values more than {0} levels deep. No hosting API sends that much: check that the base URL points at yours.',
        limit,
      );
    case 'entries':
      return vscode.l10n.t(
        'The answer holds a list of more than {0} entries. No hosting API sends that much: check that the base URL points at yours.',
        limit,
      );
    case 'members':
      return vscode.l10n.t(
        'The answer holds an object of more than {0} fields. No hosting API sends that much: check that the base URL points at yours.',
        limit,
      );
    case 'work':
      return vscode.l10n.t(
        'The answer holds too many objects, values or field names to read at once. No hosting API sends that much: check that the base URL points at yours.',
      );
  }
}

/** What a reader expected, with what it found (`got`, already worded) in the sentence. */
function expectedText(expected: ExpectedBody, got: string): string {
  switch (expected) {
    case 'account':
      return vscode.l10n.t('Expected an account object, got {0}.', got);
    case 'balance':
      return vscode.l10n.t('Expected a balance (a number, or an object with "balance"/"amount"), got {0}.', got);
    case 'order':
      return vscode.l10n.t('Expected an order object, got {0}.', got);
    case 'orderList':
      return vscode.l10n.t('Expected a list of orders (an array, or one under "data"/"orders"), got {0}.', got);
    case 'invoice':
      return vscode.l10n.t('Expected an invoice object, got {0}.', got);
    case 'invoiceList':
      return vscode.l10n.t('Expected a list of invoices (an array, or one under "data"/"invoices"), got {0}.', got);
  }
}

/** What the server sent instead, in a few words; its key names are shown as sent. */
function shapeText(shape: BodyShape): string {
  switch (shape.type) {
    case 'empty':
      return vscode.l10n.t('an empty body');
    case 'null':
      return vscode.l10n.t('null');
    case 'array':
      return vscode.l10n.t('an array');
    case 'emptyObject':
      return vscode.l10n.t('an empty object');
    case 'object':
      return vscode.l10n.t('an object with {0}', shape.keys.map((key) => `"${forMessage(key, 40)}"`).join(', '));
    case 'value':
      return shape.typeName === 'string'
        ? vscode.l10n.t('a string')
        : shape.typeName === 'number'
          ? vscode.l10n.t('a number')
          : shape.typeName === 'boolean'
            ? vscode.l10n.t('true or false')
            : vscode.l10n.t('a value of type {0}', shape.typeName);
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
