import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { HOSTILE_NAMES, hostileAnswer, serveHostile } from '../mock-api/hostile';
import { captureMessages, Harness } from './harness';

/** Every answer of the corpus but the 10 MB list, which belongs to the benchmarks. */
const READ_ANSWERS = HOSTILE_NAMES.filter((name) => name !== 'orderList10MB');

describe('hostile servers: the editor keeps answering', function () {
  this.timeout(120_000);
  let h: Harness;
  let messages: ReturnType<typeof captureMessages> | undefined;

  before(async () => {
    h = await Harness.start();
  });
  after(() => h.dispose());
  beforeEach(async () => {
    await h.signInWithFreshKey();
    messages = captureMessages();
  });
  afterEach(() => {
    messages?.restore();
    messages = undefined;
    h.mock.faults.clear();
  });

  /** How long a command that needs no network takes to answer while `reading` is under way. */
  async function commandLatency(reading: Promise<unknown>): Promise<number> {
    const node = (await h.api.orders.getChildren())[0];
    assert.ok(node, 'an order to copy');
    const started = Date.now();
    await vscode.commands.executeCommand('hostingAccount.order.copyId', node);
    const ms = Date.now() - started;
    await reading;
    return ms;
  }

  it('answers a command within a second while an endless chain of pages is read, and says the list was cut', async () => {
    serveHostile(h.mock, 'endlessPages');
    const ms = await commandLatency(h.store.refresh(['orders'], 'user'));
    assert.ok(ms < 1_000, `Copy Order ID took ${ms} ms`);
    assert.equal(h.store.listCoverage('orders')?.stoppedBy, 'sizeLimit');
    assert.match(h.api.ordersView.message ?? '', /^Showing the first [\d,.]+ orders\. The list is larger than 10 MB; the rest was not read\.$/);
    assert.ok(h.requests('GET /api/v1/orders').length <= 9, 'pages stop at the size cap');
  });

  for (const name of READ_ANSWERS) {
    it(`stays responsive and recovers after ${hostileAnswer(name).description}`, async () => {
      serveHostile(h.mock, name);
      const path = hostileAnswer(name).path;
      const kind = path.endsWith('/balance') ? 'balance' : path.endsWith('/invoices') ? 'invoices' : 'orders';
      const ms = await commandLatency(h.store.refresh([kind], 'user'));
      assert.ok(ms < 1_000, `Copy Order ID took ${ms} ms`);
      assert.ok(h.requests().every((r) => !r.rawPath.includes('admin')), 'nothing outside the API was requested');
      h.mock.faults.clear();
      // A hold the server asked for lasts (for this test's own key); either way the last good data stays shown.
      await h.store.refresh([kind], 'user');
      assert.equal(h.store.state, 'ready', 'the extension works on');
      assert.ok(h.store.orders.size > 0, 'the orders are still shown');
    });
  }
});
