import * as assert from 'node:assert/strict';
import { mockDay } from '../mock-api/renewals';
import { useSession } from './session';
import { signIn } from './signIn';
import { timeouts } from './workbench';

/**
 * The mock dates renewals from its own clock in UTC; the extension counts days in the machine's zone. Shifted by the
 * zone's offset, the mock's today is the user's, so analytics-worker renews in exactly 3 days whatever the zone.
 */
const offset = -new Date().getTimezoneOffset() * 60_000;
const mockNow = (): number => Date.now() + offset;

describe('a user is warned of a renewal the balance does not cover', () => {
  const session = useSession(() =>
    Promise.resolve({
      mock: {
        now: mockNow,
        seed: {
          // Paid, but one due in 20 days: the forecast has a link to pay it, and no overdue invoice is told.
          invoices: [
            {
              id: 51,
              number: 'INV-2026-0051',
              date: mockDay(mockNow(), -40),
              due_date: mockDay(mockNow(), -30),
              amount: 148.6,
              currency: 'EUR',
              status: 'paid' as const,
            },
            {
              id: 52,
              number: 'INV-2026-0052',
              date: mockDay(mockNow(), -10),
              due_date: mockDay(mockNow(), 20),
              amount: 12.9,
              currency: 'EUR',
              status: 'unpaid' as const,
            },
          ],
        },
      },
    }),
  );

  it('is told 3 days before, naming the server, the date and the amount short', async () => {
    await signIn(session());
    const { workbench } = session();
    const toast = workbench.notification(/analytics-worker renews on .+, in 3 days, for €79\.90/);
    await toast.waitFor({ timeout: timeouts.ui });
    assert.match(await toast.innerText(), /short by €43\.30/);
    await toast.getByRole('button', { name: 'Open Forecast' }).waitFor({ timeout: timeouts.ui });
    await workbench.statusBarItem(/€42\.50/).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('renewal notice 3 days before');
  });

  it('sees the server marked in the Orders view, with the renewal in its tooltip', async () => {
    const { workbench } = session();
    const row = workbench.rowByText('analytics-worker', workbench.view('Orders'));
    assert.match(await row.innerText(), /renewal not covered/);
    assert.doesNotMatch(await workbench.rowByText('staging-box', workbench.view('Orders')).innerText(), /not covered/);
    const hover = await workbench.hoverUntil(row, 'Renews');
    const said = await hover.innerText();
    assert.match(said, /Renews .+ · €79\.90 \/ month/);
    assert.match(said, /Your balance does not cover it: short by €43\.30/);
    await workbench.screenshot('renewal in the tooltip');
  });

  it('sees in the status bar tooltip what the balance does not cover', async () => {
    const { workbench, page } = session();
    // Away from the tree first: the server's tooltip says "does not cover" too.
    await page.mouse.move(800, 300);
    await page.locator('.monaco-hover').first().waitFor({ state: 'hidden', timeout: timeouts.ui });
    const balance = workbench.statusBarItem(/€42\.50/);
    const hover = await workbench.hoverUntil(balance, '€42.50 does not cover');
    assert.match(
      await hover.innerText(),
      /€42\.50 does not cover analytics-worker's renewal on .+ \(€79\.90\): short by €43\.30/,
    );
    await workbench.screenshot('balance tooltip says what it does not cover');
    await page.mouse.move(800, 300);
  });

  it('opens the forecast from the notice: renewals with the running balance, the day it runs out, a link to pay', async () => {
    const { workbench, page } = session();
    const toast = workbench.notification(/analytics-worker renews on/);
    await toast.getByRole('button', { name: 'Open Forecast' }).click();
    await page.locator('.tab', { hasText: 'Renewal Forecast' }).first().waitFor({ timeout: timeouts.ui });
    const preview = page.frameLocator('iframe.webview').frameLocator('#active-frame');
    await preview.locator('h1', { hasText: 'Renewal forecast' }).waitFor({ timeout: timeouts.ui });
    const body = await preview.locator('body').innerText();
    assert.match(body, /does not cover analytics-worker's renewal/);
    assert.match(body, /The balance runs out on/);
    assert.match(body, /INV-2026-0052/);
    assert.equal(
      await preview.locator('a', { hasText: 'Pay' }).first().getAttribute('href'),
      `${session().mock.url}/client/invoices/52`,
    );
    await page.mouse.move(800, 300);
    await workbench.screenshot('renewal forecast', { docs: 'renewal-forecast' });
  });
});
