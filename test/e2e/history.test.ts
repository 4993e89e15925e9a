import * as assert from 'node:assert/strict';
import { useSession } from './session';
import { dialogButton, signIn } from './signIn';
import { timeouts } from './workbench';

describe('a user reads what happened to a server, in its history', () => {
  const session = useSession({ mock: { transitionMs: 2_500 } });

  it('stops a server from its menu and sees it stopped', async () => {
    await signIn(session());
    const { workbench } = session();
    const row = workbench.rowByText('web-frontend-01', workbench.view('Orders'));
    await workbench.contextMenu(row, 'Stop');
    await dialogButton(session(), 'Stop').click({ timeout: timeouts.ui });
    await row.filter({ hasText: /Stopped/ }).waitFor({ timeout: timeouts.ui });
  });

  it('is told of a stop made elsewhere with buttons, and its Start after a read showed it running again sends nothing', async () => {
    const { workbench, mock, page } = session();
    mock.state.setOrderStatus(1002, 'stopped');
    // A click on Refresh within two seconds of the last one reads nothing again.
    await page.waitForTimeout(2_500);
    await workbench.runCommand('Hosting: Refresh');
    const stopped = workbench.notification('db-primary stopped, and not by an action from this window.');
    await stopped.waitFor({ timeout: timeouts.ui });
    await stopped.getByRole('button', { name: 'Show History' }).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('told of a stop made elsewhere, with Show History');
    mock.state.setOrderStatus(1002, 'running');
    await page.waitForTimeout(2_500);
    await workbench.runCommand('Hosting: Refresh');
    await workbench.notification('db-primary is running again').waitFor({ timeout: timeouts.ui });
    mock.clearLog();
    await stopped.getByRole('button', { name: 'Start' }).click({ timeout: timeouts.ui });
    await workbench.notification('db-primary is already running.').waitFor({ timeout: timeouts.ui });
    assert.equal(mock.requests.filter((r) => r.method === 'POST').length, 0, 'nothing sent');
  });

  it("opens the stopped server's history from its menu: newest first, one line per event", async () => {
    const { workbench, page } = session();
    await workbench.contextMenu(workbench.rowByText('web-frontend-01', workbench.view('Orders')), 'Show History');
    await page.locator('.tab', { hasText: 'History of web-frontend-01' }).first().waitFor({ timeout: timeouts.ui });
    const editor = page.locator('.editor-instance .view-lines').first();
    // The editor draws spaces as no-break spaces.
    await editor.locator('.view-line', { hasText: /Stop.settled:.Stopped.after/ }).waitFor({ timeout: timeouts.ui });
    const text = (await editor.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, /History of a server/);
    assert.match(text, /Stop sent from the menu: accepted/);
    assert.ok(!text.includes('db-primary'), 'only this server');
    await page.mouse.move(800, 300);
    await workbench.screenshot("a server's history");
  });

  it("opens the account's history from the Command Palette: the stop here and the changes made elsewhere", async () => {
    const { workbench, page } = session();
    await workbench.runCommand('Hosting: Show History');
    const editor = page.locator('.editor-instance .view-lines').first();
    await editor.locator('.view-line', { hasText: /Running.outside.this.window/ }).waitFor({ timeout: timeouts.ui });
    const text = (await editor.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, /db-primary +Stopped outside this window, was Running \((seen between|between two reads at)/);
    assert.match(text, /web-frontend-01 +Stop sent from the menu: accepted/);
    await page.mouse.move(800, 300);
    await workbench.screenshot("the account's history", { docs: 'history' });
  });
});
