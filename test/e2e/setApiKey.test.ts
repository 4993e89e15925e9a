import * as assert from 'node:assert/strict';
import { useSession } from './session';
import { timeouts } from './workbench';

describe('a new user sets an API key', () => {
  const session = useSession();

  it('sees the Hosting view asking for a key', async () => {
    const { workbench } = session();
    await workbench.openViewContainer('Hosting');
    // The welcome content appears once the extension has activated and found no key.
    await workbench.view('Orders').getByRole('button', { name: 'Set API Key' }).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('hosting view signed out', { docs: 'signed-out' });
  });

  it('enters the key through "Hosting: Set API Key"', async () => {
    const { workbench, apiKey, page } = session();
    await workbench.runCommand('Hosting: Set API Key');
    const input = workbench.quickInput();
    await input.waitFor({ timeout: timeouts.ui });
    assert.equal(await input.getAttribute('type'), 'password', 'the key is typed into a password box');
    await workbench.screenshot('set api key input box');
    await workbench.typeInQuickInput(apiKey);
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: timeouts.ui });
  });

  it('then sees the orders and the balance', async () => {
    const { workbench } = session();
    const row = workbench.rowByText('web-frontend-01', workbench.view('Orders'));
    await row.waitFor({ timeout: timeouts.ui });
    await workbench.statusBarItem(/42[.,]50/).waitFor({ timeout: timeouts.ui });
    await workbench.notification(/Signed in as Ada Lovelace/).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('orders and balance');
  });

  it('and the mock saw the key checked with GET /api/v1/me', () => {
    const { mock } = session();
    const me = mock.requests.filter((request) => request.method === 'GET' && request.rawPath.startsWith('/api/v1/me'));
    assert.ok(me.length > 0, 'GET /api/v1/me was called');
  });
});
