// A named corpus of hostile answers for tests of the client's defences: deep nesting, padded numbers, unsafe ids,
// absurd rate-limit headers, path traversal in links, endless and huge lists. Serve one with serveHostile().
import {
  endlessPage,
  JSON_HEADERS,
  nest,
  orderList10MB,
  rawOrderList,
  RETRY_DATE_2099,
  validOrderList,
} from './hostileBodies';
import { type FaultController, type FaultRule, type RawAnswerFn } from './types';

export interface HostileAnswer {
  name: HostileName;
  description: string;
  status: number;
  headers: Record<string, string>;
  /** The exact body, or (endless chain) a function computing each page's whole answer. */
  body: string | RawAnswerFn;
  /** The endpoint the entry was made for; serveHostile() uses it unless told otherwise. */
  path: string;
}

type Built = Omit<HostileAnswer, 'name' | 'description' | 'path'>;

interface Spec {
  description: string;
  path: string;
  build(): Built;
}

const ORDERS = '/api/v1/orders';
const PADDED = `1${' '.repeat(1600)}!`;

const json = (body: string, status = 200, extra: Record<string, string> = {}): Built => ({
  status,
  headers: { ...JSON_HEADERS, ...extra },
  body,
});
const specError = (error: string, message: string): string => JSON.stringify({ error, message });
const rateHeaders = (reset: string): Record<string, string> => ({
  'X-RateLimit-Limit': '120',
  'X-RateLimit-Remaining': '0',
  'X-RateLimit-Reset': reset,
});

const SPECS = {
  ordersNested23: {
    description: 'Orders nested 23 levels deep under "orders" keys (255 bytes)',
    path: ORDERS,
    build: () => json(nest('orders', 23, '[]')),
  },
  invoicesNested20: {
    description: 'Invoices nested 20 levels deep under "invoices" keys',
    path: '/api/v1/invoices',
    build: () => json(nest('invoices', 20, '[]')),
  },
  balancePaddedString: {
    description: 'Balance as a bare JSON string: "1", 1,600 spaces, "!"',
    path: '/api/v1/balance',
    build: () => json(JSON.stringify(PADDED)),
  },
  balancePaddedField: {
    description: 'Balance {"balance": "1", 1,600 spaces, "!"}',
    path: '/api/v1/balance',
    build: () => json(JSON.stringify({ balance: PADDED, currency: 'EUR' })),
  },
  errorAngleBrackets80k: {
    description: 'HTTP 500 with an 80 KiB non-JSON body made only of "<"',
    path: ORDERS,
    build: () => ({
      status: 500,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: '<'.repeat(80 * 1024),
    }),
  },
  dataNested100k: {
    description: '{"data":…} nested 100,000 levels deep',
    path: ORDERS,
    build: () => json(nest('data', 100_000, 'null')),
  },
  orderDeepArray20k: {
    description: 'An order list whose one order holds an array nested 20,000 levels deep',
    path: ORDERS,
    build: () =>
      json(
        `{"data":[{"id":1001,"name":"deep-array","status":"running","tags":${'['.repeat(20_000)}` +
          `${']'.repeat(20_000)}}],"meta":{"total":1}}`,
      ),
  },
  idLeadingSpace: {
    description: 'Order ids 7 and " 7" in one list',
    path: ORDERS,
    build: () =>
      json(
        rawOrderList([
          { idJson: '7', name: 'seven' },
          { idJson: '" 7"', name: 'space-seven' },
        ]),
      ),
  },
  idBeyondSafeInteger: {
    description: 'Order ids 9007199254740992 and 9007199254740993 as raw JSON numbers (equal as doubles)',
    path: ORDERS,
    build: () =>
      json(
        rawOrderList([
          { idJson: '9007199254740992', name: 'max-safe-plus-one' },
          { idJson: '9007199254740993', name: 'max-safe-plus-two' },
        ]),
      ),
  },
  idTwentyDigits: {
    description: 'Order id 12345678901234567890 as a raw JSON number',
    path: ORDERS,
    build: () => json(rawOrderList([{ idJson: '12345678901234567890', name: 'twenty-digits' }])),
  },
  idLoneSurrogate: {
    description: 'Order id "\\ud800" (a lone surrogate) as a JSON escape',
    path: ORDERS,
    build: () => json(rawOrderList([{ idJson: '"\\ud800"', name: 'lone-surrogate' }])),
  },
  retryAfterHuge: {
    description: '429 with Retry-After: 999999999 (about 31 years)',
    path: ORDERS,
    build: () => json(specError('rate_limited', 'Too many requests'), 429, { 'Retry-After': '999999999' }),
  },
  retryAfterDate2099: {
    description: `429 with Retry-After as an HTTP date in 2099 (${RETRY_DATE_2099})`,
    path: ORDERS,
    build: () => json(specError('rate_limited', 'Too many requests'), 429, { 'Retry-After': RETRY_DATE_2099 }),
  },
  retryAfterGarbage: {
    description: '503 with Retry-After: foo 2099',
    path: ORDERS,
    build: () => json(specError('unavailable', 'Service unavailable'), 503, { 'Retry-After': 'foo 2099' }),
  },
  rateLimitExhausted: {
    description: 'A valid order list with X-RateLimit-Remaining: 0 and a reset one hour from now',
    path: ORDERS,
    build: () => json(validOrderList(), 200, rateHeaders(String(Math.ceil(Date.now() / 1000) + 3600))),
  },
  rateLimitResetHuge: {
    description: 'A valid order list with X-RateLimit-Remaining: 0 and X-RateLimit-Reset: 99999999999999',
    path: ORDERS,
    build: () => json(validOrderList(), 200, rateHeaders('99999999999999')),
  },
  jsonWithBom: {
    description: 'A valid order list preceded by a UTF-8 byte-order mark',
    path: ORDERS,
    build: () => json(`\uFEFF${validOrderList()}`),
  },
  nextLinkTraversal: {
    description: 'A valid order list whose next page is /../../admin/delete-everything (body link and Link header)',
    path: ORDERS,
    build: () => {
      const next = '/../../admin/delete-everything';
      const body = JSON.stringify({ ...(JSON.parse(validOrderList()) as object), links: { next } });
      return json(body, 200, { Link: `<${next}>; rel="next"` });
    },
  },
  endlessPages: {
    description: 'An endless chain of ~1.25 MiB order pages; every page announces page N+1',
    path: ORDERS,
    build: () => ({ status: 200, headers: { ...JSON_HEADERS }, body: endlessPage }),
  },
  orderList10MB: {
    description: 'A valid standard-shape order list of at least 10 MiB (benchmarks)',
    path: ORDERS,
    build: () => json(orderList10MB()),
  },
} as const satisfies Record<string, Spec>;

export type HostileName = keyof typeof SPECS;

export const HOSTILE_NAMES = Object.keys(SPECS) as HostileName[];

export function isHostileName(name: string): name is HostileName {
  return Object.prototype.hasOwnProperty.call(SPECS, name);
}

/** Names, descriptions and endpoints of every entry, without building any body. */
export function hostileIndex(): { name: HostileName; description: string; path: string }[] {
  return HOSTILE_NAMES.map((name) => ({ name, description: SPECS[name].description, path: SPECS[name].path }));
}

/** Builds one entry; time-dependent entries (a reset an hour away) are computed at this call. */
export function hostileAnswer(name: HostileName): HostileAnswer {
  const spec: Spec = SPECS[name];
  return { name, description: spec.description, path: spec.path, ...spec.build() };
}

/** Every entry, built now (about 14 MB, mostly the benchmark list). */
export function hostileCorpus(): HostileAnswer[] {
  return HOSTILE_NAMES.map(hostileAnswer);
}

export interface ServeOptions {
  method?: string;
  /** Defaults to the entry's own endpoint. */
  path?: string | RegExp;
  /** Defaults to unlimited. */
  times?: number;
}

/** The 'raw' fault rule that serves a corpus entry. */
export function hostileRule(name: HostileName, options: ServeOptions = {}): FaultRule {
  const entry = hostileAnswer(name);
  return {
    kind: 'raw',
    method: options.method ?? 'GET',
    path: options.path ?? entry.path,
    status: entry.status,
    headers: entry.headers,
    body: entry.body,
    ...(options.times === undefined ? {} : { times: options.times }),
  };
}

/** Serves a corpus entry through the 'raw' fault, e.g. serveHostile(api, 'retryAfterHuge', { times: 1 }). */
export function serveHostile(
  target: { faults: FaultController },
  name: HostileName,
  options?: ServeOptions,
): FaultRule {
  const rule = hostileRule(name, options);
  target.faults.add(rule);
  return rule;
}
