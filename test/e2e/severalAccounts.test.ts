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

    await client.close();
    await workbench.runCommand('Hosting: Refresh');
    await page.keyboard.press('Escape');
    await workbench.rowByText(/stale|unreachable/, orders).waitFor({ timeout: timeouts.ui });
    await workbench.rowByText('web-frontend-01', orders).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('two accounts, the second one down');
  });
});
