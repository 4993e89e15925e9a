import * as vscode from 'vscode';
import { tell } from './show';

/**
 * Shown once per session (the caller keeps count) when the user turned certificate checks off with
 * `http.proxyStrictSSL: false`: their call, but the key then travels over connections anyone on the path could
 * intercept. The log says so for every client built.
 */
export async function showInsecureTlsNotice(): Promise<void> {
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
