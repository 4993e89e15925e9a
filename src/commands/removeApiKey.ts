import * as vscode from 'vscode';
import { type CommandContext } from './CommandContext';

export async function removeApiKey(ctx: CommandContext): Promise<void> {
  // The key store announces the change; its one listener updates the store.
  await ctx.keys.delete();
  ctx.log.info('API key removed');
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Hosting: API key removed'), 4_000);
}
