import * as assert from 'node:assert/strict';
import { useSession } from './session';
import { signIn } from './signIn';
import { timeouts } from './workbench';

const ACTION = 'POST /api/v1/orders/:id/action';

const TASKS = {
  version: '2.0.0',
  tasks: [{ label: 'start staging', type: 'hosting', action: 'start', server: 'staging-box', problemMatcher: [] }],
};

describe('a user runs a server task, groups the servers, and protects production', () => {
  const session = useSession({
    mock: { transitionMs: 2_000 },
    // The DOM renderer keeps the terminal's text in the page, where the test reads it.
    settings: { 'terminal.integrated.gpuAcceleration': 'off', 'hostingAccount.notifyWhenReachable': false },
    workspaceFiles: { '.vscode/tasks.json': JSON.stringify(TASKS, null, 2) },
  });

  it('runs the start task from Run Task and sees in its terminal that the server runs', async () => {
    await signIn(session());
    const { workbench, page, mock } = session();
    await workbench.rowByText('staging-box', workbench.view('Orders')).waitFor({ timeout: timeouts.ui });
    // Run Task by its exact title: Enter on the palette's first match may pick Restart Running Task.
    await page.keyboard.press('F1');
    await workbench.quickInput().fill('>Tasks: Run Task');
    await page.locator('.quick-input-widget .monaco-list-row[aria-label^="Tasks: Run Task"]').first().click();
    await workbench.rowByText('start staging', page.locator('.quick-input-widget')).waitFor({ timeout: timeouts.ui });
    await workbench.typeInQuickInput('start staging');
    const terminal = page.locator('.terminal-wrapper .xterm-rows');
    await terminal.filter({ hasText: 'Starting staging-box…' }).waitFor({ timeout: timeouts.ui });
    await terminal.filter({ hasText: /staging-box is running \(\d+ s\)/ }).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('start task ended in its terminal');
    assert.equal(mock.requests.filter((r) => r.route === ACTION).length, 1);
    await workbench
      .rowByText('staging-box', workbench.view('Orders'))
      .filter({ hasText: 'Running' })
      .waitFor({ timeout: timeouts.ui });
  });

  it('protects web-frontend-01 and groups the servers by state, each group with its count', async () => {
    const { workbench, page } = session();
    const orders = workbench.view('Orders');
    await workbench.contextMenu(workbench.rowByText('web-frontend-01', orders), 'Protect Server…');
    await workbench.rowByText('web-frontend-01', orders).locator('.codicon-lock').waitFor({ timeout: timeouts.ui });
    await orders.locator('.pane-header').hover();
    await orders.locator('.pane-header .action-label[aria-label^="Group Servers By"]').click({ timeout: timeouts.ui });
    await workbench.rowByText('By state', page.locator('.quick-input-widget')).waitFor({ timeout: timeouts.ui });
    await workbench.typeInQuickInput('By state');
    await workbench.rowByText(/^Running\s*3$/, orders).waitFor({ timeout: timeouts.ui });
    await workbench.rowByText(/^Stopped\s*1$/, orders).waitFor({ timeout: timeouts.ui });
    await orders.locator('.pane-header', { hasText: 'grouped by state' }).waitFor({ timeout: timeouts.ui });
    await page.keyboard.press('Escape');
    await workbench.screenshot('servers grouped by state, one protected', { docs: 'server-groups' });
  });

  it('tries to stop the protected server and is asked for its name', async () => {
    const { workbench, page, mock } = session();
    const orders = workbench.view('Orders');
    await workbench.contextMenu(workbench.rowByText('web-frontend-01', orders), 'Stop Server…');
    await workbench.typeInQuickInput('web', {
      submit: false,
      prompt: 'Type "web-frontend-01" to stop this protected server.',
    });
    await page
      .locator('.quick-input-widget .quick-input-message', { hasText: /Type the server's name/ })
      .waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('stopping a protected server asks for its name');
    await page.keyboard.press('Escape');
    assert.equal(mock.requests.filter((r) => r.route === ACTION).length, 1, 'nothing more was sent');
    await workbench.contextMenu(workbench.rowByText('web-frontend-01', orders), 'Stop Server…');
    await workbench.typeInQuickInput('web-frontend-01', { prompt: 'to stop this protected server' });
    await workbench
      .rowByText('web-frontend-01', orders)
      .filter({ hasText: 'Stopping…' })
      .waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('protected server stopping after its name was typed');
    assert.equal(mock.requests.filter((r) => r.route === ACTION).length, 2);
  });
});
