import { chromium, type BrowserContext } from 'playwright-core';
import { type RigInstall } from './install';
import { track } from './lifetime';
import { type RunScratch } from './scratch';

export const viewport = { width: 1400, height: 900 } as const;

/**
 * Debian's Chromium, headless, with a fresh profile in the run's scratch folder. `reducedMotion` keeps fades out of
 * screenshots. Closing the returned context closes the browser.
 */
export async function launchBrowser(rig: RigInstall, scratch: RunScratch): Promise<BrowserContext> {
  // Playwright keeps a temporary artifacts folder in this process's temp folder.
  process.env.TMPDIR = scratch.path('tmp');
  const context = await chromium.launchPersistentContext(scratch.path('chromium'), {
    executablePath: rig.chromium,
    headless: true,
    viewport,
    reducedMotion: 'reduce',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
    // Chromium's own files (its NSS database, crash reports) go to the scratch folder, not the home folder.
    env: { ...process.env, ...scratch.env() },
    // The run's guard stops the browser on signals; Playwright still kills it at process exit.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const untrack = track({
    name: 'Chromium',
    stop: async () => {
      untrack();
      await context.close();
    },
    killNow: () => undefined,
  });
  context.once('close', untrack);
  return context;
}

/**
 * Says which display language the workbench has, before it loads, as the script of an installed language pack would.
 * code-server serves such a script only for a language pack; without one the workbench would take English, and so
 * would `vscode.env.language` and the extension's l10n bundle. The workbench's own strings stay English.
 */
export async function setDisplayLanguage(context: BrowserContext, locale: string): Promise<void> {
  await context.addInitScript((language: string) => {
    (globalThis as { _VSCODE_NLS_LANGUAGE?: string })._VSCODE_NLS_LANGUAGE = language;
  }, locale);
}
