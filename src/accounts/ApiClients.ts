import type * as vscode from 'vscode';
import { ApiClient } from '../api/ApiClient';
import { LimiterRegistry } from '../api/RateLimiter';
import { type NetworkSettings } from '../api/network/settings';
import { proxySecrets } from '../api/network/secrets';
import { readNetworkSettings } from '../config';
import { type Log } from '../log';
import { type StoreDeps } from '../store/types';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';

/**
 * Builds every account's API clients the same way. They share the limiter registry, which counts per key and origin and
 * outlives any one client (a settings change rebuilds the client, not the count), and the network settings, read when
 * the first client is built and again after an `http.*` setting changed.
 */
export class ApiClients extends Disposable {
  private network?: NetworkSettings;
  private readonly limiters = new LimiterRegistry();
  private insecureTlsTold = false;
  private readonly httpLog: Log;
  private readonly fieldsLog: Log;
  private readonly onDidMeetInsecureTlsEmitter = this.register(new Emitter<void>());
  /** Certificate checks are off (`http.proxyStrictSSL: false`): once per session, the user should hear of it. */
  readonly onDidMeetInsecureTls = this.onDidMeetInsecureTlsEmitter.event;

  constructor(
    private readonly log: Log,
    private readonly userAgent: string,
  ) {
    super();
    this.httpLog = log.scoped('http');
    this.fieldsLog = log.scoped('fields');
    this.register({ dispose: () => this.limiters.dispose() });
  }

  readonly create: StoreDeps['createClient'] = (options) => {
    const network = (this.network ??= readNetworkSettings());
    // Masked before the client exists, so not even a failure while building it can show them.
    this.log.setSecrets('proxy', proxySecrets(network));
    if (network.strictSSL === false && !this.insecureTlsTold) {
      this.insecureTlsTold = true;
      this.onDidMeetInsecureTlsEmitter.fire();
    }
    return new ApiClient({
      ...options,
      limiters: this.limiters,
      userAgent: this.userAgent,
      network,
      secrets: () => this.log.secretValues,
      onWarning: (message) => this.httpLog.warn(message),
      onNote: (message) => this.fieldsLog.info(message),
    });
  };

  /** The next client is built on the new route; the requests under way finish on theirs. */
  networkChanged(event: vscode.ConfigurationChangeEvent): boolean {
    if (!event.affectsConfiguration('http')) return false;
    this.network = undefined;
    return true;
  }
}
