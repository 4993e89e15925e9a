import * as assert from 'node:assert/strict';
import { useSession } from './session';
import { enterKey, signIn } from './signIn';
import { timeouts } from './workbench';

describe('a user with a wrong key', () => {
  const session = useSession();

  it('is told in the key box that the key was rejected, and nothing is saved', async () => {
    await enterKey(session(), 'not-the-right-key-123');
    const { workbench, mock, page } = session();
    await page
      .locator('.quick-input-widget', { hasText: 'rejected this API key, so it was not saved' })
      .waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('wrong key rejected in the key box');
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: timeouts.ui });
    await workbench.view('Orders').getByRole('button', { name: 'Set API Key' }).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('welcome view after a wrong key');
    assert.deepEqual(
      mock.requests.filter((r) => r.rawPath.startsWith('/api/')).map((r) => [r.route, r.status]),
      [['GET /api/v1/me', 401]],
    );
    assert.equal(
      await page.locator('.notification-toast').count(),
      0,
      'a cancelled key box leaves no notification behind',
    );
  });
});

describe('a user looks at the balance and invoices', () => {
  const session = useSession();

  it('sees the balance in the status bar and opens the account summary', async () => {
    await signIn(session());
    const { workbench, page } = session();
    const balance = workbench.statusBarItem(/€42\.50/);
    await balance.waitFor({ timeout: timeouts.ui });
    await balance.click();
    await page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'Ada Lovelace' })
      .waitFor({ timeout: timeouts.ui });
    await page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'API requests left this minute' })
      .waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('account summary', { docs: 'account-summary' });
    await page.keyboard.press('Escape');
  });

  it('opens the Invoices view and sees them listed, unpaid ones standing out', async () => {
    const { workbench, page, mock } = session();
    const header = page.locator('.sidebar .pane-header', { hasText: 'Invoices' });
    await header.click();
    const invoices = workbench.view('Invoices');
    for (const invoice of mock.state.invoices) {
      await workbench.rowByText(invoice.number, invoices).waitFor({ timeout: timeouts.ui });
    }
    const unpaid = mock.state.invoices.find((i) => i.status !== 'paid');
    assert.ok(unpaid);
    assert.match(await workbench.rowByText(unpaid.number, invoices).innerText(), /UNPAID|OVERDUE/);
    await workbench.screenshot('invoices listed', { docs: 'overview' });
  });
});
