import * as assert from 'node:assert/strict';
import { type MockApi, startMockApi } from '../mock-api/server';
import { useSession } from './session';
import { signIn } from './signIn';
import { timeouts } from './workbench';

const CLIENT_KEY = 'client-account-key-0123456789';

describe('a user with two accounts, one of them down', () => {
  const session = useSession();
  let client: MockApi | undefined;

  after(() => client?.close());

  it('adds a second account, sees both side by side, and keeps the first working when the second goes down', async () => {
    await signIn(session());
    const { workbench, page, mock } = session();
    const first = mock.state.getOrder(1001);
    assert.ok(first);
    client = await startMockApi({
      quiet: true,
      keys: [CLIENT_KEY],
      seed: {
        orders: [{ ...first, id: 2001, name: 'client-shop' }],
        balance: { balance: 7, currency: 'USD', credit_limit: 0 },
        invoices: [
          {
            id: 501,
            number: 'CS-0501',
            date: '2026-02-01',
            due_date: '2026-02-15',
            amount: 19,
            currency: 'USD',
            status: 'unpaid',
          },
        ],
      },
    });
    await workbench.runCommand('Hosting: Add Account');
    await workbench.typeInQuickInput(client.url);
    await workbench.typeInQuickInput('Client shop', { prompt: 'A name for this account' });
    await workbench.typeInQuickInput(CLIENT_KEY, { prompt: 'Paste the API key' });
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: timeouts.ui });
    const orders = workbench.view('Orders');
    await workbench.rowByText('Client shop', orders).waitFor({ timeout: timeouts.ui });
    await workbench.rowByText('client-shop', orders).waitFor({ timeout: timeouts.ui });
    await workbench.rowByText('web-frontend-01', orders).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('two accounts side by side');

    // The Invoices view (the Orders view folded to make room): each account's invoices under its own row.
    // A pane header toggles: it is clicked only when it is not already as wanted.
    const expand = async (name: string, expanded: boolean): Promise<void> => {
      const header = workbench.view(name).locator('.pane-header').first();
      // On its twistie: the middle of a header holds the view's title actions (Refresh…).
      if ((await header.getAttribute('aria-expanded')) !== String(expanded)) {
        await header.click({ position: { x: 12, y: 10 } });
      }
      await workbench
        .view(name)
        .locator(`.pane-header[aria-expanded="${String(expanded)}"]`)
        .waitFor({ timeout: timeouts.ui });
    };
    await expand('Invoices', true);
    await expand('Orders', false);
    const invoices = workbench.view('Invoices');
    await workbench.rowByText('Client shop', invoices).waitFor({ timeout: timeouts.ui });
    await workbench.rowByText('CS-0501', invoices).waitFor({ timeout: timeouts.ui });
    await workbench.rowByText(mock.state.invoices[0]!.number, invoices).waitFor({ timeout: timeouts.ui });
    await page.mouse.move(800, 300);
    await workbench.screenshot('two accounts invoices');
    await expand('Orders', true);
    await workbench.rowByText('client-shop', orders).waitFor({ timeout: timeouts.ui });

    // The status bar follows the selected order's account; its tooltip lists both.
    await workbench.rowByText('client-shop', orders).click();
    const balance = workbench.statusBarItem(/\$7\.00 · Client shop/);
    await balance.waitFor({ timeout: timeouts.ui });
    const hover = await workbench.hoverUntil(balance, 'Client shop');
    assert.match(await hover.innerText(), /42\.50/);
    await workbench.screenshot('two accounts status bar tooltip');
    await page.mouse.move(400, 300);

    await client.close();
    // Refresh skips what was read in the last 2 s (a burst of clicks costs one request): data read a moment ago
    // (the clicked row's account) would be skipped, and the closed server never asked.
    await page.waitForTimeout(2_500);
    await workbench.runCommand('Hosting: Refresh');
    await page.keyboard.press('Escape');
    await workbench.rowByText(/stale|unreachable/, orders).waitFor({ timeout: timeouts.ui });
    await workbench.rowByText('web-frontend-01', orders).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('two accounts, the second one down');
  });
});
