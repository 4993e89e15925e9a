import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { JSON_HEADERS } from '../mock-api/hostileBodies';
import { tinyOrderList } from '../mock-api/hugeBodies';
import { type FaultRule } from '../mock-api/server';
import { captureMessages, Harness, KEY, waitFor } from './harness';

const API = /^\/api\//;

interface Case {
  readonly name: string;
  readonly fault: FaultRule;
  /** What the one notification must say, and the way forward it must offer. */
  readonly message: RegExp;
  readonly actions: readonly string[];
  /** What the log must hold about it. */
  readonly logged: RegExp;
  readonly settings?: Record<string, unknown>;
}

const cases: Case[] = [
  {
    name: 'a 500',
    fault: { kind: 'status', status: 500, path: API },
    message: /had a problem \(HTTP 500\)/,
    actions: ['Retry', 'Show Log'],
    logged: /server: .*HTTP 500/,
  },
  {
    name: 'a 502',
    fault: { kind: 'status', status: 502, path: API },
    message: /had a problem \(HTTP 502\)/,
    actions: ['Retry', 'Show Log'],
    // A background read is not repeated on a failing server (the schedule backs off): one request, no retry.
    logged: /→ 502 in \d+ ms \([^)]*\): server: /,
  },
  {
    name: 'a 503',
    fault: { kind: 'status', status: 503, path: API },
    message: /had a problem \(HTTP 503\)/,
    actions: ['Retry', 'Show Log'],
    logged: /→ 503/,
  },
  {
    name: 'a 504',
    fault: { kind: 'status', status: 504, path: API },
    message: /had a problem \(HTTP 504\)/,
    actions: ['Retry', 'Show Log'],
    logged: /→ 504/,
  },
  {
    name: 'a 429 storm with Retry-After',
    fault: { kind: 'rateLimit', retryAfter: '1', path: API },
    message: /limiting requests; try again in \d+ s/,
    actions: ['Show Log'],
    logged: /→ 429/,
  },
  {
    name: 'malformed JSON',
    fault: { kind: 'malformed', path: API },
    message: /could not be read: The hosting API answered with something that is not JSON/,
    actions: ['Show Log'],
    logged: /badResponse/,
  },
  {
    name: 'an HTML error page',
    fault: { kind: 'html', status: 502, path: API },
    message: /had a problem \(HTTP 502\)/,
    actions: ['Retry', 'Show Log'],
    logged: /HTML page/,
  },
  {
    name: 'an HTML page with 200',
    fault: { kind: 'html', status: 200, path: API },
    message: /an HTML page instead of JSON/,
    actions: ['Show Log'],
    logged: /HTML page/,
  },
  {
    name: 'a connection reset mid-body',
    fault: { kind: 'resetMidBody', path: API },
    message: /connection to .* broke off/,
    actions: ['Retry', 'Show Log'],
    logged: /network/,
  },
  {
    name: 'a huge body',
    fault: { kind: 'huge', bytes: 12 * 1024 * 1024, path: API },
    message: /larger than 10 MB/,
    actions: ['Show Log'],
    logged: /larger than 10 MB/,
  },
  {
    name: 'an answer nested 20,000 levels deep',
    fault: {
      kind: 'raw',
      path: API,
      status: 200,
      headers: JSON_HEADERS,
      body: `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
    },
    message: /could not be read: The answer nests values more than 32 levels deep\. No hosting API sends that much/,
    actions: ['Show Log'],
    logged: /over the bound on depth/,
  },
  {
    name: 'a list of 757,000 tiny orders (10 MB)',
    fault: { kind: 'raw', path: API, status: 200, headers: JSON_HEADERS, body: tinyOrderList().body },
    message: /could not be read: The answer holds a list of more than 20.?000 entries\./,
    actions: ['Show Log'],
    logged: /over the bound on entries/,
  },
  {
    name: 'an empty body',
    fault: { kind: 'empty', path: API },
    message: /could not be read: Expected .* got an empty body/,
    actions: ['Show Log'],
    logged: /empty body/,
  },
  {
    name: 'answers slower than the timeout',
    fault: { kind: 'delay', delayMs: 2_500, path: API },
    message: /did not answer in time/,
    actions: ['Retry', 'Show Log'],
    logged: /timeout/,
    settings: { requestTimeout: 1 },
  },
];

describe('faults: the extension keeps working and loses nothing', function () {
  this.timeout(60_000);
  let h: Harness;
  let messages: ReturnType<typeof captureMessages> | undefined;

  let key: string;
  let shown: ReturnType<typeof captureMessages>['shown'] = [];

  before(async () => {
    h = await Harness.start();
  });
  after(() => h.dispose());
  beforeEach(async () => {
    key = await h.signInWithFreshKey();
    messages = captureMessages();
    shown = messages.shown;
  });
  afterEach(() => {
    messages?.restore();
    messages = undefined;
    h.mock.faults.clear();
  });

  async function staleButStanding(): Promise<void> {
    assert.equal(h.store.state, 'ready');
    const roots = await h.api.orders.getChildren();
    assert.equal(roots.length, h.mock.state.orders.length, 'the tree keeps the last good orders');
    assert.match(h.api.ordersView.message ?? '', /Showing data from .*\. The last refresh failed: .+\./);
    assert.match(h.api.statusBar.item.text, /^\$\(warning\) €42\.50$/);
    assert.ok(h.api.statusBar.item.backgroundColor, 'the status bar item is marked');
  }

  async function recovers(): Promise<void> {
    h.mock.faults.clear();
    await h.store.refresh(['orders', 'balance'], 'background');
    assert.equal(h.api.ordersView.message, undefined);
    assert.match(h.api.statusBar.item.text, /^\$\(credit-card\) €42\.50$/);
  }

  for (const c of cases) {
    it(`survives ${c.name}: one notification, stale data kept, details logged, recovery`, async () => {
      for (const [name, value] of Object.entries(c.settings ?? {})) await h.setSetting(name, value);
      try {
        h.mock.faults.add(c.fault);
        // Three background refreshes in a row, as the timer would make them during an outage.
        for (let i = 0; i < 3; i++) await h.store.refresh(['orders', 'balance'], 'background');
        await staleButStanding();
        assert.equal(
          shown.length,
          1,
          `one notification for the episode: ${JSON.stringify(shown.map((m) => m.message))}`,
        );
        assert.match(shown[0]?.message ?? '', c.message);
        assert.deepEqual(shown[0]?.options, c.actions);
        assert.match(await h.logText(), c.logged);
        await recovers();
        assert.equal(shown.length, 1, 'recovery is quiet');
      } finally {
        for (const name of Object.keys(c.settings ?? {})) await h.setSetting(name, undefined);
      }
    });
  }

  it('tolerates a wrong content type on valid JSON', async () => {
    h.mock.faults.add({ kind: 'contentType', path: API });
    await h.store.refresh(['orders', 'balance'], 'background');
    assert.equal(h.api.ordersView.message, undefined);
    assert.equal(shown.length, 0);
  });

  it("survives a 429 without Retry-After by waiting, not hammering (the user's refresh tries once more)", async () => {
    h.mock.faults.add({ kind: 'rateLimit', retryAfter: null, path: API, times: 1 });
    await h.store.refresh(['balance'], 'user');
    const limited = h.requests().filter((r) => r.status === 429);
    assert.equal(limited.length, 1);
    const next = h.requests().find((r) => r.seq > (limited[0]?.seq ?? 0));
    assert.ok(
      next && next.time - (limited[0]?.time ?? 0) >= 4_000,
      'the default wait is honoured before the next request',
    );
    assert.equal(h.api.ordersView.message, undefined, 'the second attempt succeeded');
  });

  it('survives the server going down mid-session and coming back', async () => {
    await h.serverDown();
    try {
      for (let i = 0; i < 3; i++) await h.store.refresh(['orders', 'balance'], 'background');
      await staleButStanding();
      assert.equal(shown.length, 1);
      assert.match(shown[0]?.message ?? '', /connection was refused/);
    } finally {
      await h.serverUp();
    }
    await recovers();
    assert.equal(shown.length, 1);
  });

  it('tells the user when an action could not be sent, and when it may have been', async () => {
    const target = h.mock.state.orders.find((o) => o.status === 'stopped');
    assert.ok(target);
    await h.serverDown();
    // Idle keep-alive connections notice the close a moment later; a request on one that has not would be "may have
    // been sent", which is the honest answer for that case but not the one under test here.
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      await vscode.commands.executeCommand('hostingAccount.order.start', String(target.id));
      await waitFor(() => shown.length > 0, 'a message');
      assert.match(shown[0]?.message ?? '', /The action was not sent\./, JSON.stringify(shown));
    } finally {
      await h.serverUp();
    }
    h.mock.faults.add({ kind: 'hang', method: 'POST', times: 1 });
    await h.setSetting('requestTimeout', 1);
    try {
      await vscode.commands.executeCommand('hostingAccount.order.start', String(target.id));
      await waitFor(() => shown.length > 1, 'a second message');
      assert.match(shown[1]?.message ?? '', /did not answer in time\. The action may have reached the hosting API/);
      assert.equal(h.requests('POST /api/v1/orders/:id/action').length, 1, 'not sent twice');
      assert.equal(h.store.pending(String(target.id)), undefined, 'the order is not left busy');
    } finally {
      await h.setSetting('requestTimeout', undefined);
    }
  });

  it('accepts an empty body on a successful action', async () => {
    const target = h.mock.state.orders.find((o) => o.status === 'stopped');
    assert.ok(target);
    h.mock.faults.add({ kind: 'empty', status: 202, method: 'POST', times: 1 });
    await vscode.commands.executeCommand('hostingAccount.order.start', String(target.id));
    assert.equal(shown.length, 0);
    assert.equal(h.store.pending(String(target.id))?.phase, 'settling');
  });

  it('reports an unknown order, and refreshes the list', async () => {
    const nodes = await h.api.orders.getChildren();
    const node = nodes[0];
    assert.ok(node);
    h.mock.faults.add({ kind: 'status', status: 404, path: '/api/v1/orders/:id', times: 1 });
    await vscode.commands.executeCommand('hostingAccount.order.showDetails', node);
    await waitFor(() => shown.length > 0, 'a message');
    assert.match(shown[0]?.message ?? '', /does not know this server any more/);
    assert.deepEqual(shown[0]?.options, ['Refresh']);
  });

  it('goes to the key welcome when the key is revoked while in use, with one notification', async () => {
    h.mock.setKeys([KEY]);
    try {
      for (let i = 0; i < 3; i++) await h.store.refresh(['orders', 'balance'], 'background');
      assert.equal(h.store.state, 'invalidKey');
      assert.deepEqual(await h.api.orders.getChildren(), []);
      assert.match(h.api.statusBar.item.text, /key rejected/);
      assert.equal(shown.length, 1);
      assert.deepEqual(shown[0]?.options, ['Set API Key', 'Open API Keys Page']);
    } finally {
      h.mock.setKeys([KEY, key]);
    }
    await vscode.commands.executeCommand('hostingAccount.refresh');
    assert.equal(h.store.state, 'ready');
  });
});

describe('faults: the server is down when VS Code starts', () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(() => h.dispose());

  it('shows the unreachable welcome with Retry, then recovers once the server is up', async () => {
    const messages = captureMessages();
    try {
      await h.signInWithFreshKey();
      const key = `${KEY}-down-at-start`;
      h.mock.setKeys([key]);
      await h.serverDown();
      await h.keys.store(key);
      await vscode.commands.executeCommand('hostingAccount.orders.focus');
      await waitFor(() => h.store.state === 'unreachable', 'the unreachable state', 15_000);
      assert.deepEqual(await h.api.orders.getChildren(), []);
      assert.match(h.api.ordersView.message ?? '', /Last attempt failed: connection refused/);
      assert.match(h.api.statusBar.item.text, /Balance unavailable/);
      assert.ok(messages.shown.length <= 1);
      await h.serverUp();
      h.mock.setKeys([key]);
      await vscode.commands.executeCommand('hostingAccount.refresh');
      assert.equal(h.store.state, 'ready');
      assert.ok((await h.api.orders.getChildren()).length > 0);
    } finally {
      messages.restore();
    }
  });
});
