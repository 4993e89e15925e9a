import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { useSession } from './session';
import { dialogButton } from './signIn';
import { timeouts } from './workbench';

const root = path.resolve(__dirname, '..', '..', '..');

/** The mock's today is the user's (see renewals.test.ts): analytics-worker renews in exactly 3 days. */
const offset = -new Date().getTimezoneOffset() * 60_000;
const mockNow = (): number => Date.now() + offset;

function strings(file: string): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, string>;
}

/** A translated sentence with its placeholders as wildcards, for a text that fills them. */
function pattern(text: string): RegExp {
  return new RegExp(
    text
      .split(/\{\d+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+'),
  );
}

/**
 * A user whose VS Code speaks another language: the display language is set as the pseudo-locale run sets it (the
 * workbench's own strings stay English: no language pack is installed), and the extension speaks that language from
 * its shipped bundles. The steps look up the words in those bundles, so each checks that this language was loaded.
 */
for (const [lang, name] of [
  ['de', 'German'],
  ['ja', 'Japanese'],
] as const) {
  describe(`a user whose VS Code is in ${name}`, () => {
    const session = useSession(() => Promise.resolve({ locale: lang, mock: { now: mockNow } }));
    const bundle = strings(`l10n/bundle.l10n.${lang}.json`);
    const manifest = strings(`package.nls.${lang}.json`);
    const t = (english: string): string => {
      const text = bundle[english];
      assert.ok(text, `no ${lang} translation of "${english}"`);
      return text;
    };
    const command = (id: string): string => `Hosting: ${(manifest[id] ?? id).replace(/…$/, '')}`;
    const orders = (): ReturnType<ReturnType<typeof session>['workbench']['view']> =>
      session().workbench.view(manifest['view.orders'] ?? 'Orders');

    it('is asked for the API key in its language, and sets it through the translated command', async () => {
      const { workbench, apiKey, page } = session();
      await workbench.openViewContainer('Hosting');
      await orders()
        .getByRole('button', { name: t('Set API Key') })
        .waitFor({ timeout: timeouts.ui });
      await workbench.screenshot(`${lang} signed out`);
      await workbench.runCommand(command('cmd.setApiKey'));
      await workbench.typeInQuickInput(apiKey, { submit: false });
      await page
        .locator('.quick-input-widget', { hasText: t('API key') })
        .first()
        .waitFor({ timeout: timeouts.ui });
      await workbench.screenshot(`${lang} set api key box`);
      await workbench.quickInput().press('Enter');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: timeouts.ui });
    });

    it('sees the servers, their states, the balance and the renewal notice in its language', async () => {
      const { workbench } = session();
      const row = workbench.rowByText('web-frontend-01', orders());
      await row.waitFor({ timeout: timeouts.ui });
      assert.match(await row.innerText(), new RegExp(t('Running')));
      await workbench.statusBarItem(/42[.,]50/).waitFor({ timeout: timeouts.ui });
      await workbench.notification(pattern(t('API key saved. Signed in as {0}.'))).waitFor({ timeout: timeouts.ui });
      const notice = workbench.notification(
        pattern(t('{0} renews on {1}, in {2} days, for {3}, and your balance does not cover it: short by {4}.')),
      );
      await notice.waitFor({ timeout: timeouts.ui });
      assert.match(await notice.innerText(), /analytics-worker/);
      await notice.getByRole('button', { name: t('Open Forecast') }).waitFor({ timeout: timeouts.ui });
      await workbench.screenshot(`${lang} orders balance and renewal notice`);
    });

    it('is asked in its language before a server is stopped, and Cancel sends nothing', async () => {
      const { workbench, page, mock } = session();
      const row = workbench.rowByText('web-frontend-01', orders());
      await workbench.contextMenu(row, manifest['cmd.order.stop'] ?? 'Stop Server…');
      const stop = dialogButton(session(), t('Stop'));
      await stop.waitFor({ timeout: timeouts.ui });
      const dialog = page.locator('.monaco-dialog-box');
      assert.match(await dialog.innerText(), pattern(t('Stop {0}?')));
      assert.match(
        await dialog.innerText(),
        pattern(t('The server shuts down and whatever runs on it becomes unavailable until it is started again.')),
      );
      await workbench.screenshot(`${lang} stop confirmation`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden', timeout: timeouts.ui });
      assert.equal(mock.requests.filter((r) => r.route === 'POST /api/v1/orders/:id/action').length, 0);
    });

    it('reads the renewal forecast in its language', async () => {
      const { workbench, page } = session();
      await workbench.runCommand(command('cmd.showForecast'));
      await page
        .locator('.tab', { hasText: t('Renewal Forecast') })
        .first()
        .waitFor({ timeout: timeouts.ui });
      const preview = page.frameLocator('iframe.webview').frameLocator('#active-frame');
      await preview.locator('h1', { hasText: t('Renewal forecast') }).waitFor({ timeout: timeouts.ui });
      const body = await preview.locator('body').innerText();
      assert.match(body, pattern(t('The balance runs out on **{0}**.').replace(/\*\*/g, '')));
      assert.ok(body.includes(t('Unpaid invoices')), body);
      await page.mouse.move(800, 300);
      await workbench.screenshot(`${lang} renewal forecast`);
    });
  });
}
