import type * as vscode from 'vscode';
import { ApiClient } from '../api/ApiClient';
import { LimiterRegistry } from '../api/limiterRegistry';
import { proxySecrets } from '../api/network/secrets';
import type { NetworkSettings } from '../api/network/settings';
import { readNetworkSettings, type Settings } from '../config';
import { type Log } from '../log';
import { showInsecureTlsNotice } from '../notify/insecureTlsNotice';
import { Store } from './Store';

export interface StoreFactory extends vscode.Disposable {
  readonly create: (getKey: () => Promise<string | undefined>, baseUrl: () => string, scope: string) => Store;
  /** The next request builds a client (and its connections) on the new route; the ones under way finish. */
  networkChanged(): void;
}

/**
 * Builds every account's store the same way. They share the limiter registry, which counts per key and origin and
 * outlives any one client (a settings change rebuilds the client, not the count); it is made with the first client,
 * as it lives in the lazily loaded API bundle, and freed with the extension. Closures rather than a class: this is
 * in the activation bundle, where every byte counts.
 */
export function createStoreFactory(log: Log, userAgent: string, settings: () => Settings): StoreFactory {
  const httpLog = log.scoped('http');
  const fieldsLog = log.scoped('fields');
  // Read when the first client is built, not at activation; dropped when an `http.*` setting changes.
  let network: NetworkSettings | undefined;
  let insecureTlsNoticeShown = false;
  let limiters: LimiterRegistry | undefined;
  return {
    create: (getKey, baseUrl, scope) =>
      new Store({
        createClient: (options) => {
          network ??= readNetworkSettings();
          // Masked before the client exists, so not even a failure while building it can show them.
          log.setSecrets('proxy', proxySecrets(network));
          if (network.strictSSL === false && !insecureTlsNoticeShown) {
            insecureTlsNoticeShown = true;
            void showInsecureTlsNotice();
          }
          limiters ??= new LimiterRegistry();
          return new ApiClient({
            ...options,
            limiters,
            userAgent,
            network,
            secrets: () => log.secretValues,
            onWarning: (message) => httpLog.warn(message),
            onNote: (message) => fieldsLog.info(message),
          });
        },
        getKey,
        settings: () => ({
          baseUrl: baseUrl(),
          requestsPerMinute: settings().maxRequestsPerMinute,
          requestTimeoutMs: settings().requestTimeoutMs,
        }),
        log: log.scoped(scope),
      }),
    networkChanged: () => (network = undefined),
    dispose: () => limiters?.dispose(),
  };
}
