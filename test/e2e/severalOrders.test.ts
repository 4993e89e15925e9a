import * as assert from 'node:assert/strict';
import { useSession } from './session';
import { dialogButton, signIn } from './signIn';
import { timeouts } from './workbench';

const ACTION = 'POST /api/v1/orders/:id/action';

describe('a user stops two servers at once, then filters the view', () => {
  const session = useSession({ mock: { transitionMs: 2_500 } });

  it('selects two running orders and sees only the actions that fit both', async () => {
    await signIn(session());
    const { workbench, page } = session();
    const orders = workbench.view('Orders');
    const first = workbench.rowByText('web-frontend-01', orders);
    const second = workbench.rowByText('db-primary', orders);
    await first.waitFor({ timeout: timeouts.ui });
    await first.click();
    await second.click({ modifiers: ['Control'] });
    // The selection's context keys and rows reach the workbench from the extension host a moment after the click: a
    // menu opened before them (one server's menu) is opened again, as a user would.
    const stop = page.getByRole('menuitem', { name: 'Stop' }).first();
    const deadline = Date.now() + timeouts.ui;
    let menu: string[] = [];
    for (;;) {
      await second.click({ button: 'right' });
      const shown = await stop.waitFor({ timeout: 3_000 }).then(
        () => true,
        () => false,
      );
      menu = shown ? await page.locator('.monaco-menu .action-label').allInnerTexts() : [];
      if ((shown && !menu.includes('Reinstall Server…')) || Date.now() >= deadline) break;
      await page.keyboard.press('Escape');
    }
    await workbench.screenshot('context menu of two selected running orders');
    await page.keyboard.press('Escape');
    assert.ok(menu.includes('Stop Server…') && menu.includes('Restart Server…'), menu.join(', '));
    assert.ok(!menu.includes('Start Server…'), menu.join(', '));
    assert.ok(
      !menu.some((item) => item.startsWith('Reinstall')),
      `Reinstall is one server at a time: ${menu.join(', ')}`,
    );
  });

  it("right-clicks a stopped row outside the selection and sees that row's own actions", async () => {
    const { workbench, page } = session();
    // VS Code keeps the two selected and gives the menu's command the clicked row alone.
    await workbench.rowByText('staging-box', workbench.view('Orders')).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Start' }).first().waitFor({ timeout: timeouts.ui });
    const menu = await page.locator('.monaco-menu .action-label').allInnerTexts();
    await workbench.screenshot('context menu of a row outside the selection');
    await page.keyboard.press('Escape');
    for (const item of ['Start Server…', 'Show History', 'Reinstall Server…', 'Pin Server to the Top…']) {
      assert.ok(menu.includes(item), `${item}: ${menu.join(', ')}`);
    }
    assert.ok(!menu.includes('Stop Server…'), menu.join(', '));
  });

  it('chooses Stop, confirms once for both, and sees both busy', async () => {
    const { workbench, mock } = session();
    const orders = workbench.view('Orders');
    await workbench.contextMenu(workbench.rowByText('db-primary', orders), 'Stop');
    const confirm = dialogButton(session(), 'Stop 2 Servers');
    await confirm.waitFor({ timeout: timeouts.ui });
    const dialog = await session().page.locator('.monaco-dialog-box').innerText();
    assert.match(dialog, /Stop 2 servers\?/);
    assert.match(dialog, /web-frontend-01, db-primary/);
    await workbench.screenshot('bulk stop confirmation');
    await confirm.click();
    await workbench
      .rowByText('web-frontend-01', orders)
      .filter({ hasText: 'Stopping…' })
      .waitFor({ timeout: timeouts.ui });
    await workbench.rowByText('db-primary', orders).filter({ hasText: 'Stopping…' }).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('bulk stop both stopping');
    assert.equal(mock.requests.filter((r) => r.route === ACTION).length, 2, 'one POST per order');
    await workbench
      .rowByText('db-primary', orders)
      .filter({ hasText: /Stopped/ })
      .waitFor({ timeout: timeouts.ui });
    await workbench
      .rowByText('web-frontend-01', orders)
      .filter({ hasText: /Stopped/ })
      .waitFor({ timeout: timeouts.ui });
    // The user's own stop is never told as a change made elsewhere.
    await session().page.waitForTimeout(2_500);
    assert.equal(
      await session().page.locator('.notification-toast', { hasText: 'not by an action from this window' }).count(),
      0,
    );
  });

  it('filters the view to stopped orders from the view title, and the description says so', async () => {
    const { workbench, page } = session();
    const orders = workbench.view('Orders');
    await orders.locator('.pane-header').hover();
    await orders.locator('.pane-header .action-label[aria-label^="Filter Servers"]').click({ timeout: timeouts.ui });
    await workbench.rowByText('Stopped', page.locator('.quick-input-widget')).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('filter pick');
    await workbench.typeInQuickInput('Stopped');
    await orders.locator('.pane-header', { hasText: 'stopped: 4 of 6' }).waitFor({ timeout: timeouts.ui });
    await workbench.rowByText('staging-box', orders).waitFor({ timeout: timeouts.ui });
    // The description changes as the view reads its children; the rows follow when the tree renders them.
    await workbench.rowByText('legacy-mail', orders).waitFor({ state: 'detached', timeout: timeouts.ui });
    await workbench.screenshot('orders filtered to stopped');
  });

  it('sees a welcome with a way back when nothing matches the filter', async () => {
    const { workbench } = session();
    const orders = workbench.view('Orders');
    await workbench.runCommand('Hosting: Filter Servers…');
    await workbench.typeInQuickInput('Running');
    await orders.getByText('No server matches the filter.').waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('filtered view with nothing matching');
    await orders.getByRole('button', { name: 'Show All Servers' }).click();
    await workbench.rowByText('legacy-mail', orders).waitFor({ timeout: timeouts.ui });
  });

  it('is told when a server starts or stops outside this window, with Show and Start buttons', async () => {
    const { workbench, mock } = session();
    mock.state.setOrderStatus(1004, 'running');
    await workbench.runCommand('Hosting: Refresh');
    await workbench
      .rowByText('build-runner', workbench.view('Orders'))
      .filter({ hasText: /Running/ })
      .waitFor({ timeout: timeouts.ui });
    const running = workbench.notification('build-runner is running again');
    await running.waitFor({ timeout: timeouts.ui });
    mock.state.setOrderStatus(1004, 'stopped');
    // A click on Refresh within two seconds of the last one reads nothing again.
    await session().page.waitForTimeout(2_500);
    await workbench.runCommand('Hosting: Refresh');
    const toast = workbench.notification('build-runner stopped, and not by an action from this window.');
    await toast.waitFor({ timeout: timeouts.ui });
    await toast.getByRole('button', { name: 'Start' }).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('told of an outside stop');
  });
});
