import * as assert from 'node:assert/strict';
import { type Locator } from 'playwright-core';
import { extensionId } from '../rig/paths';
import { useSession } from './session';
import { timeouts } from './workbench';

describe('a new user follows the Getting Started walkthrough', () => {
  const session = useSession();

  /** A step's checkbox: VS Code keeps `aria-checked` in step with the step's completion. */
  function checkbox(step: string): Locator {
    const id = `${extensionId}#hostingAccount.gettingStarted#${step}`;
    return session().page.locator(`.getting-started-step [data-done-step-id="${id}"]`).first();
  }

  /** Waits until VS Code has marked the step done (or not done). */
  async function waitChecked(step: string, checked: boolean): Promise<void> {
    const id = `${extensionId}#hostingAccount.gettingStarted#${step}`;
    await session()
      .page.locator(`[data-done-step-id="${id}"][aria-checked="${String(checked)}"]`)
      .first()
      .waitFor({ timeout: timeouts.ui });
  }

  it('finds it under "Welcome: Open Walkthrough..."', async () => {
    const { workbench, page } = session();
    await workbench.runCommand('Welcome: Open Walkthrough...');
    await workbench.rowByText('Get Started with Hosting Account').waitFor({ timeout: timeouts.ui });
    await workbench.typeInQuickInput('Get Started with Hosting Account');
    await page.locator('.getting-started-step', { hasText: 'Add your API key' }).waitFor({ timeout: timeouts.ui });
    assert.equal(await page.locator('.getting-started-step', { hasText: /./ }).count(), 4, 'four steps');
  });

  it('shows the address step done (the address is set) and the key step still to do', async () => {
    const { workbench } = session();
    await waitChecked('address', true);
    assert.equal(await checkbox('key').getAttribute('aria-checked'), 'false');
    assert.equal(await checkbox('servers').getAttribute('aria-checked'), 'false');
    await workbench.screenshot('walkthrough new user');
  });

  it('completes the key step by itself once the key is set from its button', async () => {
    const { workbench, page, apiKey } = session();
    await page.locator('.getting-started-step', { hasText: 'Add your API key' }).click();
    await page.getByRole('button', { name: 'Set API Key' }).first().click({ timeout: timeouts.ui });
    await workbench.typeInQuickInput(apiKey);
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: timeouts.ui });
    await waitChecked('key', true);
  });

  it('completes the servers step when the orders are shown', async () => {
    const { workbench, page } = session();
    await page.locator('.getting-started-step', { hasText: 'See your servers' }).click();
    await page.getByRole('button', { name: 'Show Orders' }).first().click({ timeout: timeouts.ui });
    await workbench.rowByText('web-frontend-01', workbench.view('Orders')).waitFor({ timeout: timeouts.ui });
    await waitChecked('servers', true);
    assert.equal(await checkbox('connect').getAttribute('aria-checked'), 'false', 'nothing connected yet');
    await workbench.screenshot('walkthrough after sign in');
  });
});
