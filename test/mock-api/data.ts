import { type MockSeed, type OrderRecord, type OrderStatus } from './types';

export const DEMO_API_KEY = 'demo-0123456789abcdef0123456789abcdef';

// IPs come from the documentation ranges (RFC 5737) so nothing in a demo points at a real host.
// 1006 is seeded mid-transition on purpose: nothing completes it, so tests can rely on `action_in_progress`.
const DEFAULT_SEED: MockSeed = {
  account: {
    id: 4242,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    company: 'Analytical Engines Ltd',
    created_at: '2021-03-14T09:26:53Z',
    tier: 'pro',
  },
  balance: { balance: 42.5, currency: 'EUR', credit_limit: 0 },
  orders: [
    order(1001, 'web-frontend-01', 'running', 'VPS M', '203.0.113.10', 'Frankfurt', 'Ubuntu 24.04', 4, 8, 160, 12.9),
    order(1002, 'db-primary', 'running', 'VPS L', '203.0.113.11', 'Frankfurt', 'Debian 12', 8, 32, 640, 39.9),
    order(1003, 'staging-box', 'stopped', 'VPS S', '198.51.100.23', 'Nuremberg', 'Ubuntu 22.04', 2, 4, 80, 5.9),
    order(
      1004,
      'build-runner',
      'stopped',
      'Dedicated AX41',
      '198.51.100.24',
      'Helsinki',
      'Rocky Linux 9',
      6,
      64,
      1024,
      44,
    ),
    order(1005, 'legacy-mail', 'suspended', 'VPS S', '192.0.2.55', 'Falkenstein', 'CentOS 7', 2, 4, 80, 5.9),
    order(1006, 'analytics-worker', 'starting', 'VPS XL', '192.0.2.56', 'Ashburn', 'Ubuntu 24.04', 16, 64, 1280, 79.9),
  ],
  invoices: [
    {
      id: 38,
      number: 'INV-2025-0038',
      date: '2025-10-01',
      due_date: '2025-10-15',
      amount: 148.6,
      currency: 'EUR',
      status: 'paid',
    },
    {
      id: 39,
      number: 'INV-2025-0039',
      date: '2025-11-01',
      due_date: '2025-11-15',
      amount: 148.6,
      currency: 'EUR',
      status: 'paid',
    },
    {
      id: 40,
      number: 'INV-2025-0040',
      date: '2025-12-01',
      due_date: '2025-12-15',
      amount: 188.5,
      currency: 'EUR',
      status: 'paid',
    },
    {
      id: 41,
      number: 'INV-2026-0041',
      date: '2026-01-01',
      due_date: '2026-01-15',
      amount: 188.5,
      currency: 'EUR',
      status: 'overdue',
    },
    {
      id: 42,
      number: 'INV-2026-0042',
      date: '2026-02-01',
      due_date: '2026-02-15',
      amount: 188.5,
      currency: 'EUR',
      status: 'unpaid',
    },
  ],
};

function order(
  id: number,
  name: string,
  status: OrderStatus,
  plan: string,
  ip: string,
  location: string,
  os: string,
  cpu: number,
  ramGb: number,
  diskGb: number,
  priceMonthly: number,
): OrderRecord {
  return {
    id,
    name,
    status,
    plan,
    ip,
    location,
    os,
    cpu,
    ram_gb: ramGb,
    disk_gb: diskGb,
    created_at: `2024-0${(id % 9) + 1}-1${id % 10}T08:00:00Z`,
    renews_at: `2026-0${(id % 9) + 1}-1${id % 10}T08:00:00Z`,
    price_monthly: priceMonthly,
    currency: 'EUR',
  };
}

/** A fresh deep copy of the seed, with the given parts replaced; nothing is shared between servers. */
export function createSeed(overrides: Partial<MockSeed> = {}): MockSeed {
  return structuredClone({
    account: overrides.account ?? DEFAULT_SEED.account,
    balance: overrides.balance ?? DEFAULT_SEED.balance,
    orders: overrides.orders ?? DEFAULT_SEED.orders,
    invoices: overrides.invoices ?? DEFAULT_SEED.invoices,
  });
}

const GENERATED_STATUSES: readonly OrderStatus[] = ['running', 'running', 'running', 'stopped', 'suspended'];
const GENERATED_PLANS = [
  ['VPS S', 2, 4, 80, 5.9],
  ['VPS M', 4, 8, 160, 12.9],
  ['VPS L', 8, 32, 640, 39.9],
] as const;
const GENERATED_LOCATIONS = ['Frankfurt', 'Nuremberg', 'Helsinki', 'Falkenstein', 'Ashburn'] as const;

/** Deterministic bulk orders for volume tests and benchmarks. */
export function generateOrder(id: number, index: number): OrderRecord {
  const [plan, cpu, ram, disk, price] = GENERATED_PLANS[index % GENERATED_PLANS.length] ?? GENERATED_PLANS[0];
  const location = GENERATED_LOCATIONS[index % GENERATED_LOCATIONS.length] ?? 'Frankfurt';
  const status = GENERATED_STATUSES[index % GENERATED_STATUSES.length] ?? 'running';
  const ip = `10.${(id >> 16) & 255}.${(id >> 8) & 255}.${id & 255}`;
  return order(
    id,
    `node-${String(id).padStart(5, '0')}`,
    status,
    plan,
    ip,
    location,
    'Ubuntu 24.04',
    cpu,
    ram,
    disk,
    price,
  );
}

/** An order for a test's own seed: only what the test is about is given, the rest is one plain VPS. */
export function orderRecord(
  id: number,
  name: string,
  status: OrderStatus,
  ip: string,
  extra: Record<string, unknown> = {},
): OrderRecord {
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
    ...extra,
  };
}
