import * as assert from 'node:assert/strict';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { orderRecord } from '../mock-api/data';
import { useSession } from './session';
import { signIn } from './signIn';
import { timeouts } from './workbench';

describe('a user starts a server, hears when it is up, and goes into it', () => {
  // The server's SSH port, played by a loopback listener: the probe after Start finds it open.
  let sshPort: Server | undefined;
  const session = useSession(async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    sshPort = server;
    return {
      settings: { 'hostingAccount.ssh.port': (server.address() as AddressInfo).port },
      mock: {
        transitionMs: 1_500,
        seed: {
          orders: [
            orderRecord(3001, 'web-01', 'stopped', '127.0.0.1'),
            orderRecord(3002, 'db-primary', 'running', '203.0.113.11'),
            orderRecord(3003, 'no-address', 'running', ''),
          ],
        },
      },
    };
  });
  after(async () => {
    await new Promise((resolve) => (sshPort ? sshPort.close(resolve) : resolve(undefined)));
  });

  it('sees Copy Address on hover, and the SSH items in the context menu of a running order', async () => {
    await signIn(session());
    const { workbench, page } = session();
    const orders = workbench.view('Orders');
    const row = workbench.rowByText('db-primary', orders);
    await row.waitFor({ timeout: timeouts.ui });
    await row.hover();
    await row.getByRole('button', { name: 'Copy Server Address…' }).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('copy address on hover');

    await row.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Connect to Server via SSH…' }).first().waitFor({ timeout: timeouts.ui });
    const menu = await page.locator('.monaco-menu .action-label').allInnerTexts();
    await workbench.screenshot('context menu with the SSH items');
    await page.keyboard.press('Escape');
    for (const item of ['Copy Server Address…', 'Connect to Server via SSH…', 'Open Server in Remote-SSH…']) {
      assert.ok(menu.includes(item), menu.join(', '));
    }
    assert.equal(menu[menu.length - 1], 'Reinstall Server…', 'Reinstall still stands last');

    const bare = workbench.rowByText('no-address', orders);
    await bare.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Stop' }).first().waitFor({ timeout: timeouts.ui });
    const bareMenu = await page.locator('.monaco-menu .action-label').allInnerTexts();
    await page.keyboard.press('Escape');
    assert.ok(
      !bareMenu.includes('Copy Server Address…') && !bareMenu.includes('Connect to Server via SSH…'),
      bareMenu.join(', '),
    );
  });

  it('starts the stopped server and is told once it is up, with the next steps', async () => {
    const { workbench } = session();
    const row = workbench.rowByText('web-01', workbench.view('Orders'));
    await workbench.contextMenu(row, 'Start');
    await row.filter({ hasText: /Running/ }).waitFor({ timeout: timeouts.ui });
    const toast = workbench.notification('web-01 is up');
    await toast.waitFor({ timeout: timeouts.ui });
    await toast.getByRole('button', { name: 'Connect via SSH' }).waitFor({ timeout: timeouts.ui });
    await toast.getByRole('button', { name: 'Open in Remote-SSH' }).waitFor({ timeout: timeouts.ui });
    // Away from the tree, so no order's tooltip covers the picture.
    await session().page.mouse.move(800, 300);
    await session()
      .page.locator('.workbench-hover-container .monaco-hover, .monaco-hover')
      .first()
      .waitFor({ state: 'hidden', timeout: timeouts.ui });
    await workbench.screenshot('server is up notification');
  });

  it('connects from the notification: the terminal runs ssh with exactly the expected arguments', async () => {
    const { workbench } = session();
    await workbench.notification('web-01 is up').getByRole('button', { name: 'Connect via SSH' }).click();
    // The stand-in port closes every connection, so ssh exits at once and VS Code reports the process it ran, as argv.
    const report = workbench.notification(/The terminal process "ssh/);
    await report.waitFor({ timeout: timeouts.ui });
    const port = (sshPort?.address() as AddressInfo).port;
    assert.match(await report.innerText(), new RegExp(`"ssh '-l', 'root', '-p', '${port}', '--', '127\\.0\\.0\\.1'"`));
    await workbench.screenshot('ssh run from the notification');
  });
});
