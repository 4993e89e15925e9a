import * as vscode from 'vscode';
import { ApiClient } from '../api/ApiClient';
import { LimiterRegistry } from '../api/RateLimiter';
import { type NetworkSettings } from '../api/network/settings';
import { proxySecrets } from '../api/network/secrets';
import { readNetworkSettings } from '../config';
import { type Log } from '../log';
import { tell } from '../notify/show';
import { type StoreDeps } from '../store/types';
import { Disposable } from '../util/lifecycle';

/** The limiter registry counts per key and origin and outlives any one client: a settings change keeps the count. */
export class ApiClients extends Disposable {
  private network?: NetworkSettings;
  private readonly limiters: LimiterRegistry;
  private insecureTlsTold = false;
  private readonly httpLog: Log;
  private readonly fieldsLog: Log;

  constructor(
    private readonly log: Log,
    private readonly userAgent: string,
    globalState: vscode.Memento,
  ) {
    super();
    this.limiters = new LimiterRegistry(undefined, undefined, globalState);
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
      void insecureTlsNotice();
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

  networkChanged(event: vscode.ConfigurationChangeEvent): boolean {
    if (!event.affectsConfiguration('http')) return false;
    this.network = undefined;
    return true;
  }
}

/** The user's call, but the key then travels over connections anyone on the path could intercept. */
async function insecureTlsNotice(): Promise<void> {
  const open = vscode.l10n.t('Open Settings');
  const picked = await tell(
    'warning',
    vscode.l10n.t(
      'Hosting Account does not check TLS certificates, because http.proxyStrictSSL is off: anyone on the network path could read your API key.',
    ),
    open,
  );
  if (picked === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'http.proxyStrictSSL');
}
