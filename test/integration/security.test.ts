import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createSeed } from '../mock-api/data';
import { type MockApi, type OrderRecord } from '../mock-api/server';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import { captureMessages, captureOpenExternal, extraMock, Harness, KEY, stubWindow, waitFor } from './harness';

describe('security: where the key goes', () => {
  let h: Harness;
  let decoy: MockApi;
  let settingsFile: string;

  before(async () => {
    h = await Harness.start();
    // A server the extension must never reach: a workspace tries to point it there.
    decoy = await extraMock('decoy', { keys: [KEY] });
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the tests run in a workspace folder');
    settingsFile = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
  });
  after(async () => {
    // The folder stays: VS Code watches it for snippets once it exists, and complains if it vanishes.
    fs.rmSync(settingsFile, { force: true });
    await decoy.close();
    await h.dispose();
  });

  it('ignores a workspace that points hostingAccount.baseUrl (or the website) at another server', async () => {
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    // VS Code itself drops application-scoped settings from a workspace; the extension reads only the user's value
    // as well. Either way the workspace file must change nothing: give VS Code time to read it, then check.
    const changed = new Promise<void>((resolve) => {
      const subscription = vscode.workspace.onDidChangeConfiguration(() => {
        subscription.dispose();
        resolve();
      });
      setTimeout(resolve, 2_000);
    });
    fs.writeFileSync(
      settingsFile,
      JSON.stringify({
        'hostingAccount.baseUrl': decoy.url,
        'hostingAccount.websiteUrl': 'https://phishing.example',
        'hostingAccount.maxRequestsPerMinute': 1000,
      }),
    );
    await changed;
    assert.equal(vscode.workspace.getConfiguration('hostingAccount').get('baseUrl'), h.mock.url);

    await h.signIn();
    await h.store.refresh(['orders', 'balance', 'account', 'invoices'], 'user');
    const nodes = await h.api.orders.getChildren();
    assert.ok(nodes[0]);
    await h.api.orders.getChildren(nodes[0]);
    const opened = await captureOpenExternal(() => vscode.commands.executeCommand('hostingAccount.openApiKeysPage'));

    assert.equal(decoy.requests.length, 0, 'the workspace-named server received nothing');
    assert.ok(h.requests().length >= 5, 'the user-level server received the requests');
    assert.ok(h.requests().every((r) => r.authorization === `Bearer ${h.key}`));
    assert.equal(opened?.toString(true), `${h.mock.url}/client/api-keys`);
    assert.equal(h.store.rateLimitStatus()?.limit, 100, 'nor can it raise the request limit');
  });

  it('refuses a plain-http base URL that is not loopback, before any request', async () => {
    fs.rmSync(settingsFile, { force: true });
    await h.setSetting('baseUrl', 'http://hosting.example.com');
    try {
      await waitFor(() => h.store.state === 'badBaseUrl', 'the bad base URL state');
      const messages = captureMessages();
      try {
        await vscode.commands.executeCommand('hostingAccount.refresh');
        await vscode.commands.executeCommand('hostingAccount.order.start', '1003');
      } finally {
        messages.restore();
      }
      assert.deepEqual(await h.api.orders.getChildren(), []);
    } finally {
      await h.setSetting('baseUrl', h.mock.url);
    }
    await waitFor(() => h.store.state !== 'badBaseUrl', 'the base URL to be accepted again');
  });
});

describe('security: order ids are one path segment', () => {
  const ids = ['../balance', 'a/b?c#d', '%2F', 'with space', 'ünï✓', '..', '[x](command:workbench.action.quit)'];
  let h: Harness;

  before(async () => {
    const template = { ...createSeed().orders.find((o) => o.status === 'stopped') } as OrderRecord;
    const orders = ids.map((id, i) => ({ ...template, id, name: `odd-${i}` }));
    h = await Harness.start({ seed: { orders } });
    await h.signIn();
  });
  after(() => h.dispose());

  it('lists, expands and acts on orders whose ids hold / ? # % .. and unicode, each as a single encoded segment', async () => {
    const nodes = (await h.api.orders.getChildren()) as OrderNode[];
    assert.deepEqual(
      nodes.map((n) => n.id),
      ids,
    );
    h.mock.clearLog();
    for (const node of nodes) await h.api.orders.getChildren(node);
    const restore = stubWindow('showWarningMessage', () => Promise.resolve(undefined));
    try {
      await vscode.commands.executeCommand('hostingAccount.order.start', nodes[1]);
    } finally {
      restore();
    }
    const seen = h.requests().map((r) => [r.route, r.rawPath, r.orderId]);
    assert.deepEqual(
      seen.slice(0, ids.length),
      ids.map((id) => [
        'GET /api/v1/orders/:id',
        `/api/v1/orders/${/^\.+$/.test(id) ? id.replace(/\./g, '%2E') : encodeURIComponent(id)}`,
        id,
      ]),
    );
    assert.deepEqual(seen[ids.length], [
      'POST /api/v1/orders/:id/action',
      '/api/v1/orders/a%2Fb%3Fc%23d/action',
      'a/b?c#d',
    ]);
  });

  it('never turns server text into a command link in a notification', async () => {
    const nodes = (await h.api.orders.getChildren()) as OrderNode[];
    const hostile = nodes.find((n) => n.id.startsWith('[x]'));
    assert.ok(hostile);
    const messages = captureMessages({ warning: 'Stop' });
    let refusal: string | undefined;
    try {
      // The order is stopped: the server refuses, and its message repeats the id.
      await vscode.commands.executeCommand('hostingAccount.order.stop', hostile);
      refusal = await waitFor(() => messages.shown.find((m) => m.level === 'error')?.message, 'the refusal');
    } finally {
      messages.restore();
    }
    assert.match(refusal, /\[x\] \(command:/, 'the text is still there');
    assert.doesNotMatch(refusal, /\]\(command:/, 'but cannot form a link');
  });
});
