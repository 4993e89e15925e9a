import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type MockApi, startMockApi } from '../mock-api/server';
import { useSession } from './session';
import { dialogButton, signIn } from './signIn';
import { timeouts } from './workbench';

/** Every file under `dir` whose bytes contain `needle`, with the number of times. */
function filesContaining(dir: string, needle: string): Array<[string, number]> {
  const found: Array<[string, number]> = [];
  const bytes = Buffer.from(needle);
  const walk = (current: string): void => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const content = fs.readFileSync(full);
        let count = 0;
        for (let at = content.indexOf(bytes); at >= 0; at = content.indexOf(bytes, at + 1)) count++;
        if (count) found.push([path.relative(dir, full), count]);
      }
    }
  };
  walk(dir);
  return found;
}

describe('a user in a workspace that tries to redirect the key, then the key is looked for everywhere', () => {
  let decoy: MockApi | undefined;
  const notifications: string[] = [];
  const session = useSession(async () => {
    decoy = await startMockApi({ quiet: true });
    return {
      workspaceFiles: {
        '.vscode/settings.json': JSON.stringify({
          'hostingAccount.baseUrl': decoy.url,
          'hostingAccount.confirmStopAndRestart': false,
        }),
      },
    };
  });
  after(async () => {
    await decoy?.close();
  });

  async function collectNotifications(): Promise<void> {
    notifications.push(...(await session().page.locator('.notification-toast').allInnerTexts()));
  }

  it('signs in, uses every feature, and meets an error', async () => {
    await signIn(session());
    const { workbench, page, mock } = session();
    const orders = workbench.view('Orders');
    await workbench.rowByText('web-frontend-01', orders).waitFor({ timeout: timeouts.ui });
    await collectNotifications();
    await workbench.contextMenu(workbench.rowByText('build-runner', orders), 'Start');
    await workbench.contextMenu(workbench.rowByText('web-frontend-01', orders), 'Stop');
    // The workspace tried to switch off the confirmation; it is still asked for.
    await dialogButton(session(), 'Stop').click({ timeout: timeouts.ui });
    await workbench.contextMenu(workbench.rowByText('db-primary', orders), 'Show Server Details…');
    await page.locator('.monaco-editor', { hasText: 'db-primary' }).first().waitFor({ timeout: timeouts.ui });
    // What loaded in the last two seconds is not fetched again by Refresh: let it age first.
    await page.waitForTimeout(2_100);
    mock.faults.add({ kind: 'status', status: 500, path: /^\/api\// });
    await workbench.runCommand('Hosting: Refresh');
    await workbench.notification(/had a problem \(HTTP 500\)/).waitFor({ timeout: timeouts.ui });
    mock.faults.clear();
    await collectNotifications();
    await workbench.runCommand('Hosting: Show Log');
    await page
      .locator('.monaco-editor', { hasText: '[http] GET /api/v1/orders' })
      .first()
      .waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('log with requests');
    await collectNotifications();
  });

  it('sent nothing to the server the workspace named', () => {
    assert.equal(decoy?.requests.length, 0);
    assert.ok(session().mock.requests.filter((r) => r.rawPath.startsWith('/api/')).length >= 6);
  });

  it('left the key in no log, setting, state, workspace file or message', async () => {
    const { server, scratch, apiKey, mock } = session();
    // Stopping code-server flushes its logs and state databases to disk before they are read.
    await server.stop();
    // The scan must reach the files that matter: the extension's own log has the requests in it.
    assert.ok(
      filesContaining(scratch.dir, '[http] GET /api/v1/orders').some(([file]) => file.endsWith('Hosting Account.log')),
      'the extension log was written and scanned',
    );
    const hits = [
      ...filesContaining(scratch.dir, apiKey),
      ...filesContaining(scratch.dir, Buffer.from(apiKey).toString('base64')),
    ];
    const outsideSecretStorage = hits.filter(([file]) => !/^chromium\/Default\/Local Storage\//.test(file));
    assert.deepEqual(
      outsideSecretStorage,
      [],
      "files holding the key outside the browser's (encrypted) secret storage",
    );
    assert.ok(notifications.length >= 2, 'notifications were seen');
    assert.ok(
      notifications.every((text) => !text.includes(apiKey)),
      'no message showed the key',
    );
    assert.ok(
      mock.requests.every((r) => !r.rawPath.includes(apiKey)),
      'the key never went into a URL',
    );
    console.log(
      `      key occurrences outside secret storage: ${outsideSecretStorage.length} files; in secret storage: ${hits.length - outsideSecretStorage.length}`,
    );
  });
});

describe('a user in a workspace opened as untrusted (Restricted Mode)', () => {
  const session = useSession({ untrusted: true });

  it('still sees the orders and can act on them', async () => {
    const { workbench } = session();
    await workbench.statusBarItem(/Restricted Mode/).waitFor({ timeout: timeouts.ui });
    await signIn(session());
    await workbench.rowByText('web-frontend-01', workbench.view('Orders')).waitFor({ timeout: timeouts.ui });
    await workbench.statusBarItem(/€42\.50/).waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('restricted mode orders');
  });
});

describe('a user during an outage', () => {
  const session = useSession();

  it('keeps seeing the last orders, marked stale, with one notification offering Retry', async () => {
    await signIn(session());
    const { workbench, mock, page } = session();
    const orders = workbench.view('Orders');
    await workbench.rowByText('web-frontend-01', orders).waitFor({ timeout: timeouts.ui });
    await page.waitForTimeout(2_100);
    mock.faults.add({ kind: 'status', status: 503, path: /^\/api\// });
    await workbench.runCommand('Hosting: Refresh');
    const toast = workbench.notification(/had a problem \(HTTP 503\)/);
    await toast.waitFor({ timeout: timeouts.ui });
    await orders.locator('.monaco-list-row', { hasText: 'web-frontend-01' }).waitFor({ timeout: timeouts.ui });
    await page
      .getByText(/Showing data from .*\. The last refresh failed: HTTP 503\./)
      .first()
      .waitFor({ timeout: timeouts.ui });
    await workbench.statusBarItem(/€42\.50/).waitFor({ timeout: timeouts.ui });
    assert.equal(
      await page.locator('.notification-toast', { hasText: /HTTP 50\d|could not|Cannot/ }).count(),
      1,
      'one problem notification',
    );
    await workbench.screenshot('outage stale data');
  });

  it('presses Retry once the server is back, and the warning goes', async () => {
    const { workbench, mock, page } = session();
    mock.faults.clear();
    await workbench
      .notification(/had a problem/)
      .getByRole('button', { name: 'Retry' })
      .click();
    await page
      .getByText(/Showing data from/)
      .first()
      .waitFor({ state: 'hidden', timeout: timeouts.ui });
    await workbench.screenshot('outage recovered');
  });
});
