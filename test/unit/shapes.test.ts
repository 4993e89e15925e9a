import assert from 'node:assert/strict';
import { ApiClient } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { type ApiShape, DEMO_API_KEY, type MockApi, startMockApi } from '../mock-api/server';
import { plain } from '../../src/util/serverText';

const SHAPES: readonly ApiShape[] = ['standard', 'bare', 'alt', 'jsonapi', 'paged'];

describe('every mock shape reads the same (unit, against the mock API)', () => {
  for (const shape of SHAPES) {
    describe(shape, () => {
      let mock: MockApi;
      let notes: string[];
      const client = (): ApiClient =>
        new ApiClient({
          baseUrl: mock.url,
          getKey: () => DEMO_API_KEY,
          userAgent: 'shapes',
          limiters: new LimiterRegistry(61_000),
          onNote: (line) => notes.push(line),
        });

      beforeEach(async () => {
        notes = [];
        mock = await startMockApi({ shape, pageSize: 2, quiet: true });
      });
      afterEach(() => mock.close());

      it('lists every order over every page, with names, states and addresses', async () => {
        const listing = await client().listOrders();
        assert.equal(listing.stoppedBy, undefined);
        assert.deepEqual(
          listing.items.map((o) => o.id),
          mock.state.orders.map((o) => String(o.id)),
        );
        const byName = new Map(listing.items.map((o) => [plain(o.label), o]));
        assert.equal(byName.get('web-frontend-01')?.state, 'running');
        assert.equal(byName.get('staging-box')?.state, 'stopped');
        assert.equal(byName.get('legacy-mail')?.state, 'suspended');
        assert.equal(byName.get('analytics-worker')?.state, 'busy');
        assert.equal(byName.get('web-frontend-01')?.address, '203.0.113.10');
      });

      it('reads one order, the balance, the account and the invoices', async () => {
        const api = client();
        assert.equal(plain((await api.getOrder('1003')).label), 'staging-box');
        const balance = await api.getBalance();
        assert.equal(balance.amount, 42.5);
        assert.ok(plain((await api.getAccount()).name ?? '').includes('Ada'));
        const invoices = (await api.listInvoices()).items;
        assert.equal(invoices.length, mock.state.invoices.length);
        assert.ok(
          invoices.every((i) => plain(i.number ?? '').startsWith('INV-')),
          JSON.stringify(invoices.map((i) => i.number)),
        );
      });

      it('logs once per endpoint which field was read as what', async () => {
        const api = client();
        await api.listOrders();
        await api.listOrders();
        const orders = notes.filter((n) => n.startsWith('orders:'));
        assert.equal(orders.length, 1, notes.join('\n'));
        assert.match(orders[0] ?? '', /id ← .*(name|label) ← .*state ← /);
      });

      it('stops an order that sits on the last page', async () => {
        const api = client();
        const [added] = mock.state.addOrders(1);
        assert.ok(added);
        mock.state.setOrderStatus(added.id, 'running');
        const last = (await api.listOrders()).items.at(-1);
        assert.equal(last?.id, String(added.id));
        await api.orderAction(last.id, 'stop');
        assert.deepEqual(
          mock.requests.filter((r) => r.method === 'POST').map((r) => r.rawPath),
          [`/api/v1/orders/${added.id}/action`],
        );
      });
    });
  }
});
