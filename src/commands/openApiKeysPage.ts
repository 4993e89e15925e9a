import * as vscode from 'vscode';
import { type Settings, websiteUrl } from '../config';
import { type CommandContext } from './CommandContext';

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
      vscode.l10n.t('Set the address of your provider (hostingAccount.baseUrl) to open its API keys page.'),
      open,
    );
    if (picked === open) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'hostingAccount.baseUrl');
    }
    return;
  }
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
