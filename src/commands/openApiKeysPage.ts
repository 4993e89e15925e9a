import * as vscode from 'vscode';
import { type Settings } from '../config';
import { type CommandContext } from './CommandContext';

/** The provider's key page: on the configured website, or on the API's own host when no website is set. */
export function apiKeysPageUrl(settings: Settings): string | undefined {
  const site = settings.websiteUrl || settings.baseUrl;
  if (!site) return undefined;
  try {
    const url = new URL(site);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    const prefix = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/i, '');
    return `${url.origin}${prefix}/client/api-keys`;
  } catch {
    return undefined;
  }
}

export async function openApiKeysPage(ctx: CommandContext): Promise<void> {
  const url = apiKeysPageUrl(ctx.settings());
  if (!url) {
    const open = vscode.l10n.t('Open Settings');
    const picked = await vscode.window.showErrorMessage(
      vscode.l10n.t('Set the address of your provider (hostingAccount.baseUrl) to open its API keys page.'), open);
    if (picked === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'hostingAccount.baseUrl');
    return;
  }
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
