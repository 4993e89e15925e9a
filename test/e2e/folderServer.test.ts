import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { orderRecord } from '../mock-api/data';
import { FakeSshKeygen } from '../unit/helpers/fakeSshKeygen';
import { useSession } from './session';
import { dialogButton, signIn } from './signIn';
import { timeouts } from './workbench';

const ACTION = 'POST /api/v1/orders/:id/action';

describe('a user binds the project folder to its server, works from the status bar, and reconnects after a reinstall', () => {
  // The server's SSH port, played by a loopback listener that closes every connection: ssh gives up with exit 255.
  let sshPort: Server | undefined;
  // OpenSSH's ssh-keygen edits the known_hosts of the account it runs as, whatever HOME says: a stand-in first on
  // code-server's PATH records what it is asked instead (this machine's own known_hosts stays as it is).
  let keygen: FakeSshKeygen | undefined;
  const session = useSession(async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    sshPort = server;
    const port = (server.address() as AddressInfo).port;
    // Not in this process's temp folder: the rig points it at the previous session's, removed when that one ended.
    const base = path.join(process.cwd(), '.vscode-test', 'tmp');
    fs.mkdirSync(base, { recursive: true });
    keygen = new FakeSshKeygen({ known: { '203.0.113.10': 3, [`[203.0.113.10]:${port}`]: 4 } }, base);
    const env = keygen.env;
    return {
      env: {
        // The server would otherwise give the extension host the PATH of a login shell; set, it keeps this one.
        VSCODE_CLI: '1',
        PATH: env.PATH ?? '',
        FAKE_SSH_KEYGEN_CALLS: env.FAKE_SSH_KEYGEN_CALLS ?? '',
        FAKE_SSH_KEYGEN_BEHAVIOUR: env.FAKE_SSH_KEYGEN_BEHAVIOUR ?? '',
      },
      settings: {
        'hostingAccount.ssh.port': (server.address() as AddressInfo).port,
        'hostingAccount.notifyWhenReachable': false,
        // Remotes come from VS Code's git extension, which the rig's quiet settings turn off.
        'git.enabled': true,
        'git.openRepositoryInParentFolders': 'never',
      },
      mock: {
        transitionMs: 1_500,
        seed: {
          orders: [
            // ssh goes to 127.0.0.1 (picked); the old keys offered are the public address's: loopback is this machine.
            orderRecord(4001, 'web-01', 'running', '203.0.113.10 127.0.0.1'),
            orderRecord(4002, 'db-01', 'stopped', '203.0.113.11'),
          ],
        },
      },
      // The project's git remote points at web-01's own address: the folder says which server it belongs to. A
      // repository git accepts needs its objects and refs folders too.
      workspaceFiles: {
        '.git/HEAD': 'ref: refs/heads/main\n',
        '.git/config': '[core]\n\tbare = false\n[remote "origin"]\n\turl = ssh://git@203.0.113.10/srv/app.git\n',
        '.git/objects/info/.keep': '',
        '.git/refs/heads/.keep': '',
        'README.md': '# app\n',
      },
    };
  });
  after(async () => {
    await new Promise((resolve) => (sshPort ? sshPort.close(resolve) : resolve(undefined)));
    keygen?.dispose();
  });

  const port = (): number => (sshPort?.address() as AddressInfo).port;

  it('is asked once whether to bind the folder to the server its git remote points at, and binds it', async () => {
    await signIn(session());
    const { workbench } = session();
    const toast = workbench.notification('Bind the folder "workspace" to the server web-01?');
    await toast.waitFor({ timeout: timeouts.ui });
    assert.match(await toast.innerText(), /The folder's git remote points at it\./);
    await workbench.screenshot('folder server suggested');
    await toast.getByRole('button', { name: 'Bind', exact: true }).click();
    const item = workbench.statusBarItem(/web-01 · Running/);
    await item.waitFor({ timeout: timeouts.ui });
    await workbench.screenshot("this folder's server in the status bar");
  });

  it("restarts the server from the item's menu, and the item follows it", async () => {
    const { workbench, page, mock } = session();
    await workbench.statusBarItem(/web-01 · Running/).click();
    const picker = page.locator('.quick-input-widget');
    await picker.locator('.monaco-list-row', { hasText: 'Connect via SSH' }).waitFor({ timeout: timeouts.ui });
    const offered = await picker.locator('.monaco-list-row').allInnerTexts();
    // The README's picture: the item and what a click on it offers.
    await workbench.screenshot("the folder server's actions", { docs: 'folder-server' });
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
    const { workbench, page } = session();
    const row = workbench.rowByText('web-01', workbench.view('Orders'));
    await workbench.contextMenu(row, 'Reinstall Server…');
    await dialogButton(session(), 'Reinstall…').click();
    await workbench.typeInQuickInput('web-01', { prompt: 'Type "web-01"' });
    await workbench.statusBarItem(/web-01 · Reinstalling/).waitFor({ timeout: timeouts.ui });
    await workbench.statusBarItem(/web-01 · Running/).waitFor({ timeout: timeouts.ui });

    await workbench.statusBarItem(/web-01 · Running/).click();
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Connect via SSH' }).waitFor();
    await workbench.typeInQuickInput('Connect via SSH');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: '127.0.0.1' }).waitFor();
    await workbench.typeInQuickInput('127.0.0.1');
    const offer = page.locator('.monaco-dialog-box', { hasText: 'web-01 was reinstalled since you last connected' });
    await offer.waitFor({ timeout: timeouts.ui });
    assert.match(await offer.innerText(), /Forget the old host keys of 203\.0\.113\.10 \(ssh-keygen -R\)/);
    await workbench.screenshot('forget the old host keys after a reinstall', { docs: 'forget-host-keys' });
    assert.deepEqual(keygen?.calls(), [], 'nothing forgotten before the click');
    await dialogButton(session(), 'Forget Old Host Keys').click();

    // The terminal ran ssh, which the closing port ends with 255: with the old keys just forgotten, they are not
    // blamed, and forgetting is not offered again.
    const warning = workbench.notification('SSH to web-01 ended with an error.');
    await warning.waitFor({ timeout: timeouts.ui });
    assert.match(await warning.innerText(), /Its old host keys were forgotten just before, so this is not about them/);
    assert.equal(await warning.getByRole('button', { name: /Forget/ }).count(), 0);
    assert.deepEqual(keygen?.calls(), [
      ['-R', '203.0.113.10'],
      ['-R', `[203.0.113.10]:${port()}`],
    ]);
    await workbench.screenshot('ssh ended with an error');
  });
});
