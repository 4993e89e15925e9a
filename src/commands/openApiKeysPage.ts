import * as vscode from 'vscode';
import { parseBaseUrl } from '../api/baseUrl';
import { type Settings } from '../config';
import { type CommandContext } from './CommandContext';

/**
 * The provider's web site: the configured one, or the API's own address. Held to the base URL's rules (https, or
 * http on loopback), since it is opened in the browser.
 */
export function websiteUrl(settings: Settings): string | undefined {
  try {
    return parseBaseUrl(settings.websiteUrl || settings.baseUrl).href;
  } catch {
    return undefined;
  }
}

/** The provider's key page. */
export function apiKeysPageUrl(settings: Settings): string | undefined {
  const site = websiteUrl(settings);
  return site && `${site}/client/api-keys`;
}

export async function openApiKeysPage(ctx: CommandContext): Promise<void> {
  const url = apiKeysPageUrl(ctx.settings());
  if (!url) {
    const open = vscode.l10n.t('Open Settings');
    const picked = await vscode.window.showWarningMessage(
      vscode.l10n.t('Set the address of your provider (hostingAccount.baseUrl) to open its API keys page.'), open);
    if (picked === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'hostingAccount.baseUrl');
    return;
  }
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
