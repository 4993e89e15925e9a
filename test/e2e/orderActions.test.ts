import * as assert from 'node:assert/strict';
import { useSession } from './session';
import { dialogButton, signIn } from './signIn';
import { timeouts } from './workbench';

const ACTION = 'POST /api/v1/orders/:id/action';

describe('a user stops a running server from its context menu', () => {
  const session = useSession({ mock: { transitionMs: 2_500 } });

  it('signs in and sees the orders with their states', async () => {
    await signIn(session());
    const { workbench } = session();
    const row = workbench.rowByText('web-frontend-01', workbench.view('Orders'));
    await row.waitFor({ timeout: timeouts.ui });
    assert.match(await row.innerText(), /Running/);
    await workbench.rowByText('staging-box', workbench.view('Orders')).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('orders with states');
  });

  it('offers Start only on the stopped order', async () => {
    const { workbench, page } = session();
    const orders = workbench.view('Orders');
    await workbench.rowByText('web-frontend-01', orders).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Stop' }).first().waitFor({ timeout: timeouts.ui });
    const runningMenu = await page.locator('.monaco-menu .action-label').allInnerTexts();
    await workbench.screenshot('context menu of a running order', { docs: 'servers-and-actions' });
    await page.keyboard.press('Escape');
    assert.ok(!runningMenu.includes('Start Server…'), runningMenu.join(', '));
    assert.ok(
      runningMenu.includes('Restart Server…') && runningMenu.includes('Reinstall Server…'),
      runningMenu.join(', '),
    );
    assert.equal(runningMenu[runningMenu.length - 1], 'Reinstall Server…', 'Reinstall stands last');

    const stoppedRow = workbench.rowByText('staging-box', orders);
    await stoppedRow.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Start' }).first().waitFor({ timeout: timeouts.ui });
    const stoppedMenu = await page.locator('.monaco-menu .action-label').allInnerTexts();
    await workbench.screenshot('context menu of a stopped order');
    await page.keyboard.press('Escape');
    assert.ok(stoppedMenu.includes('Start Server…'), stoppedMenu.join(', '));
    assert.ok(
      !stoppedMenu.includes('Stop Server…') && !stoppedMenu.includes('Restart Server…'),
      stoppedMenu.join(', '),
    );
  });

  it('chooses Stop, confirms in the dialog, and sees the order busy', async () => {
    const { workbench, mock } = session();
    const row = workbench.rowByText('web-frontend-01', workbench.view('Orders'));
    await workbench.contextMenu(row, 'Stop');
    await dialogButton(session(), 'Stop').waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('stop confirmation');
    await dialogButton(session(), 'Stop').click();
    await row.filter({ hasText: 'Stopping…' }).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('order stopping', { docs: 'server-stopping' });
    assert.equal(mock.requests.filter((r) => r.route === ACTION).length, 1);
  });

  it('and then stopped, without refreshing by hand', async () => {
    const { workbench, mock } = session();
    const row = workbench.rowByText('web-frontend-01', workbench.view('Orders'));
    await row.filter({ hasText: /Stopped/ }).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('order stopped');
    assert.equal(mock.requests.filter((r) => r.route === ACTION).length, 1, 'exactly one POST');
    assert.equal(mock.requests.find((r) => r.route === ACTION)?.body, '{"action":"stop"}');
  });
});

describe('a user reinstalls a server, deliberately', () => {
  const session = useSession({ mock: { transitionMs: 2_500 } });

  it('cancels the first time: nothing is sent', async () => {
    await signIn(session());
    const { workbench, mock } = session();
    const row = workbench.rowByText('db-primary', workbench.view('Orders'));
    await row.waitFor({ timeout: timeouts.ui });
    await workbench.contextMenu(row, 'Reinstall Server…');
    await dialogButton(session(), 'Reinstall…').waitFor({ timeout: timeouts.ui });
    const dialog = await session().page.locator('.monaco-dialog-box').innerText();
    assert.match(dialog, /erases the server/);
    assert.match(dialog, /cannot be undone/);
    await workbench.screenshot('reinstall warning', { docs: 'reinstall-confirmation' });
    await dialogButton(session(), 'Cancel').click();
    await session().page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: timeouts.ui });
    assert.equal(mock.requests.filter((r) => r.route === ACTION).length, 0);
  });

  it("confirms by typing the server's name: exactly one POST", async () => {
    const { workbench, mock, page } = session();
    const row = workbench.rowByText('db-primary', workbench.view('Orders'));
    await workbench.contextMenu(row, 'Reinstall Server…');
    await dialogButton(session(), 'Reinstall…').click();
    await workbench.typeInQuickInput('db', { submit: false, prompt: 'Type "db-primary"' });
    await page.locator('.quick-input-widget', { hasText: "Type the server's name" }).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('reinstall name mismatch');
    await workbench.typeInQuickInput('db-primary');
    await row.filter({ hasText: 'Reinstalling' }).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('order reinstalling');
    assert.equal(mock.requests.filter((r) => r.route === ACTION).length, 1);
    assert.equal(mock.requests.find((r) => r.route === ACTION)?.body, '{"action":"reinstall"}');
    await row.filter({ hasText: 'Running' }).waitFor({ timeout: timeouts.ui });
  });
});
