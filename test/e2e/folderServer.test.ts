import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import * as path from 'node:path';
import { type OrderRecord } from '../mock-api/types';
import { useSession } from './session';
import { dialogButton, signIn } from './signIn';
import { timeouts } from './workbench';

const ACTION = 'POST /api/v1/orders/:id/action';

function record(id: number, name: string, status: OrderRecord['status'], ip: string): OrderRecord {
  return {
    id,
    name,
    status,
    ip,
    plan: 'VPS M',
    location: 'Frankfurt',
    os: 'Debian 12',
    cpu: 4,
    ram_gb: 8,
    disk_gb: 160,
    created_at: '2024-01-01T08:00:00Z',
    renews_at: '2026-01-01T08:00:00Z',
    price_monthly: 12.9,
    currency: 'EUR',
  };
}

describe('a user binds the project folder to its server, works from the status bar, and reconnects after a reinstall', () => {
  // The server's SSH port, played by a loopback listener that closes every connection: ssh gives up with exit 255.
  let sshPort: Server | undefined;
  const session = useSession(async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    sshPort = server;
    return {
      settings: {
        'hostingAccount.ssh.port': (server.address() as AddressInfo).port,
        'hostingAccount.notifyWhenReachable': false,
      },
      mock: {
        transitionMs: 1_500,
        seed: {
          orders: [record(4001, 'web-01', 'running', '127.0.0.1'), record(4002, 'db-01', 'stopped', '203.0.113.11')],
        },
      },
      // The project's git remote points at web-01's address: the folder says which server it belongs to.
      workspaceFiles: {
        '.git/HEAD': 'ref: refs/heads/main\n',
        '.git/config': '[core]\n\tbare = false\n[remote "origin"]\n\turl = ssh://git@127.0.0.1/srv/app.git\n',
        'README.md': '# app\n',
      },
    };
  });
  after(async () => {
    await new Promise((resolve) => (sshPort ? sshPort.close(resolve) : resolve(undefined)));
  });

  const port = (): number => (sshPort?.address() as AddressInfo).port;

  it('is asked once whether to bind the folder to the server its git remote points at, and binds it', async () => {
    await signIn(session());
    const { workbench } = session();
    const toast = workbench.notification('Bind the folder workspace to the server web-01?');
    await toast.waitFor({ timeout: timeouts.ui });
    assert.match(await toast.innerText(), /The folder's git remote points at it\./);
    await workbench.screenshot('folder server suggested');
    await toast.getByRole('button', { name: 'Bind', exact: true }).click();
    const item = workbench.statusBarItem(/web-01 · Running/);
    await item.waitFor({ timeout: timeouts.ui });
    await workbench.screenshot("this folder's server in the status bar", { docs: 'folder-server' });
  });

  it("restarts the server from the item's menu, and the item follows it", async () => {
    const { workbench, page, mock } = session();
    await workbench.statusBarItem(/web-01 · Running/).click();
    const picker = page.locator('.quick-input-widget');
    await picker.locator('.monaco-list-row', { hasText: 'Connect via SSH' }).waitFor({ timeout: timeouts.ui });
    const offered = await picker.locator('.monaco-list-row').allInnerTexts();
    await workbench.screenshot("the folder server's actions");
    assert.ok(!offered.some((text) => text.includes('Start')), offered.join(' | '));
    await workbench.typeInQuickInput('Restart');
    await dialogButton(session(), 'Restart').click();
    await workbench.statusBarItem(/web-01 · Restarting…/).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('folder server restarting');
    await workbench.statusBarItem(/web-01 · Running/).waitFor({ timeout: timeouts.ui });
    assert.deepEqual(
      mock.requests.filter((r) => r.route === ACTION).map((r) => r.body),
      ['{"action":"restart"}'],
    );
  });

  it('after a reinstall, is offered to forget the old host keys before connecting, and they go', async () => {
    const { workbench, page, scratch } = session();
    const row = workbench.rowByText('web-01', workbench.view('Orders'));
    await workbench.contextMenu(row, 'Reinstall Server…');
    await dialogButton(session(), 'Reinstall…').click();
    await workbench.typeInQuickInput('web-01', { prompt: 'Type "web-01"' });
    await workbench.statusBarItem(/web-01 · Reinstalling/).waitFor({ timeout: timeouts.ui });
    await workbench.statusBarItem(/web-01 · Running/).waitFor({ timeout: timeouts.ui });

    // What this machine knew of the server before: its keys in known_hosts (the session's own home folder).
    const ssh = path.join(scratch.path('home'), '.ssh');
    fs.mkdirSync(ssh, { recursive: true });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(ssh, 'old_host_key')]);
    const key = fs.readFileSync(path.join(ssh, 'old_host_key.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ');
    const knownHosts = path.join(ssh, 'known_hosts');
    fs.writeFileSync(knownHosts, `[127.0.0.1]:${port()} ${key}\n203.0.113.11 ${key}\n`);

    await workbench.statusBarItem(/web-01 · Running/).click();
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Connect via SSH' }).waitFor();
    await workbench.typeInQuickInput('Connect via SSH');
    const offer = page.locator('.monaco-dialog-box', { hasText: 'web-01 was reinstalled since you last connected' });
    await offer.waitFor({ timeout: timeouts.ui });
    assert.match(await offer.innerText(), /Forget the old host keys of 127\.0\.0\.1 \(ssh-keygen -R\)/);
    await workbench.screenshot('forget the old host keys after a reinstall');
    await dialogButton(session(), 'Forget Old Host Keys').click();

    // ssh-keygen -R took the server's entry and left the other one.
    await waitForFile(knownHosts, (text) => !text.includes('127.0.0.1'));
    assert.match(fs.readFileSync(knownHosts, 'utf8'), /^203\.0\.113\.11 /);
    // The terminal ran ssh, which the closing port ends with 255: what may have happened is said, not claimed.
    const warning = workbench.notification('SSH to web-01 ended with an error.');
    await warning.waitFor({ timeout: timeouts.ui });
    assert.match(await warning.innerText(), /If it was not reinstalled, keep the key/);
    await workbench.screenshot('ssh ended with an error');
  });
});

async function waitForFile(file: string, done: (text: string) => boolean): Promise<void> {
  const started = Date.now();
  while (!done(fs.readFileSync(file, 'utf8'))) {
    if (Date.now() - started > timeouts.ui) assert.fail(`${file} did not change`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
