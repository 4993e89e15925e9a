import assert from 'node:assert/strict';
import { ApiClient } from '../../src/api/ApiClient';
import { LimiterRegistry } from '../../src/api/RateLimiter';
import { AMOUNT_SCALE } from '../../src/api/normalise/money';
import { forecast } from '../../src/billing/forecast';
import { noticesDue, ordersToWarn } from '../../src/billing/notices';
import { fixedZone } from '../../src/util/calendar';
import { mockDay } from '../mock-api/renewals';
import { DEMO_API_KEY, type MockApi, startMockApi } from '../mock-api/server';

/** Two clocks years apart, so the dates are seen to follow the mock’s clock, not the machine’s. */
const CLOCKS = [Date.UTC(2026, 10, 24, 9), Date.UTC(2031, 1, 27, 9)];

describe('the mock API’s renewals, read and forecast by the client (unit, against the mock API)', function () {
  this.timeout(20_000);
  let mock: MockApi | undefined;
  let client: ApiClient | undefined;

  afterEach(async () => {
    await client?.dispose();
    await mock?.close();
    client = undefined;
    mock = undefined;
  });

  for (const shape of ['standard', 'paged'] as const) {
    for (const now of CLOCKS) {
      it(`"${shape}": one server renews in 3 days without cover, the rest are covered (clock ${mockDay(now, 0)})`, async () => {
        mock = await startMockApi({ shape, now: () => now, rateLimit: false });
        client = new ApiClient({
          baseUrl: mock.url,
          getKey: () => DEMO_API_KEY,
          userAgent: 'hosting-account-vscode/9.9.9-test',
          limiters: new LimiterRegistry(61_000),
        });
        const orders = (await client.listOrders()).items;
        const balance = await client.getBalance();
        const f = forecast(balance, orders, [], now, { zone: fixedZone(0) });
        const next = (id: string): string => `${f.orders.get(id)?.next?.day} ${f.orders.get(id)?.next?.kind}`;
        assert.deepEqual(['1001', '1002', '1003', '1004', '1005', '1006'].map(next), [
          `${mockDay(now, 12)} charge`,
          `${mockDay(now, 20)} charge`,
          `${mockDay(now, 1)} charge`,
          `${mockDay(now, 40)} charge`,
          `${mockDay(now, 5)} expires`,
          `${mockDay(now, 3)} charge`,
        ]);
        assert.deepEqual([...ordersToWarn(f)], ['1006']);
        assert.equal(f.renewals[0]?.covered, true, 'staging-box, tomorrow, is covered');
        assert.ok(f.coverage.kind === 'short');
        assert.deepEqual(
          [f.coverage.first.source, f.coverage.first.daysAway, f.coverage.shortBy / AMOUNT_SCALE],
          [{ kind: 'order', orderId: '1006', label: 'analytics-worker' }, 3, 43.3],
        );
        const notices = noticesDue(f, { account: 'default', told: new Set(), now, zone: fixedZone(0) });
        assert.deepEqual(
          notices.map((n) => [n.step, n.daysAway, n.renewal.source.kind === 'order' && n.renewal.source.orderId]),
          [[3, 3, '1006']],
        );
        assert.equal(
          f.renewals.find((r) => r.source.kind === 'order' && r.source.orderId === '1004')?.amount,
          132 * AMOUNT_SCALE,
        );
      });
    }
  }

  it('dates generated orders past the warning window, so volume tests warn about nothing', async () => {
    const now = CLOCKS[0] as number;
    mock = await startMockApi({ now: () => now, rateLimit: false });
    mock.state.addOrders(200);
    client = new ApiClient({
      baseUrl: mock.url,
      getKey: () => DEMO_API_KEY,
      userAgent: 'hosting-account-vscode/9.9.9-test',
      limiters: new LimiterRegistry(61_000),
    });
    const orders = (await client.listOrders()).items;
    const f = forecast({ amount: 1e6, currency: 'EUR', raw: {} }, orders, [], now, { zone: fixedZone(0) });
    const days = orders.slice(6).map((o) => f.orders.get(o.id)?.next?.daysAway ?? -1);
    assert.ok(days.every((d) => d >= 8 && d <= 28));
  });
});
